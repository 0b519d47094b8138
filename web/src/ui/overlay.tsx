// The dimmed backdrop behind a modal dialog or drawer, rendered inside the dialog's Portal.
//
// Opening a modal must not make the browser restyle the whole page: with /health's 10,000-check
// table on screen that cost 25–130 ms before the drawer could paint. Two things did it:
// - Radix's own Overlay wraps the backdrop in react-remove-scroll, whose stylesheet sets a custom
//   property on <body> (inherited by every element). The console never scrolls the window (the
//   shell's <main> scrolls), so that lock had nothing to lock: this backdrop is a plain element.
// - A modal Radix layer sets `pointer-events: none` on <body>, an inherited property, so every
//   element below is restyled. While this backdrop is shown it covers the page anyway, so the page's
//   root keeps `pointer-events: auto` of its own and the change on <body> stops there.
// Radix still traps focus, hides the rest of the page from assistive technology and closes a
// dismissable dialog on a press outside its content, this backdrop included.
import { useEffect } from 'react';
import { cn } from './cn';

let shown = 0;

export function ModalOverlay({ className }: { className?: string }) {
  useEffect(() => {
    const root = document.getElementById('root');
    if (!root) return;
    // Set and undone among the same passive effects as Radix's change of <body>, with no style
    // computed in between: the browser restyles once, and only <body> and its children.
    shown += 1;
    root.style.pointerEvents = 'auto';
    return () => {
      shown -= 1;
      if (shown === 0) root.style.pointerEvents = '';
    };
  }, []);
  // pointer-events: the backdrop takes presses (<body> has none while the modal is open), so that a
  // press on it reaches the dismiss handler.
  return (
    <div
      aria-hidden
      data-state="open"
      style={{ pointerEvents: 'auto' }}
      className={cn('fixed inset-0 bg-black/40 backdrop-blur-[1px]', className)}
    />
  );
}
