// Light and dark mode: follows the system setting until the user picks one; the choice is
// stored and applied as the `dark` class on <html> (index.html applies it before first paint).
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { readStored, writeStored } from './storage';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'opsdeck.theme';
const isChoice = (v: unknown): v is ThemeChoice => v === 'system' || v === 'light' || v === 'dark';

interface ThemeState {
  choice: ThemeChoice;
  resolved: 'light' | 'dark';
  setChoice(choice: ThemeChoice): void;
}

const ThemeContext = createContext<ThemeState>({ choice: 'system', resolved: 'light', setChoice: () => {} });

function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

// index.html stores the raw string; JSON.parse of "dark" (without quotes) fails, so read both forms.
function readChoice(): ThemeChoice {
  try {
    const raw = localStorage.getItem(KEY);
    if (isChoice(raw)) return raw;
  } catch {
    // fall through
  }
  return readStored<ThemeChoice>(KEY, 'system', isChoice);
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [choice, setChoiceState] = useState<ThemeChoice>(readChoice);
  const [systemDark, setSystemDark] = useState(systemPrefersDark);

  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const listener = (e: MediaQueryListEvent) => setSystemDark(e.matches);
    mq.addEventListener('change', listener);
    return () => mq.removeEventListener('change', listener);
  }, []);

  const resolved = choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;
  useEffect(() => {
    document.documentElement.classList.toggle('dark', resolved === 'dark');
  }, [resolved]);

  const setChoice = (next: ThemeChoice) => {
    setChoiceState(next);
    try {
      localStorage.setItem(KEY, next); // the raw string, as index.html reads it
    } catch {
      writeStored(KEY, next);
    }
  };

  return <ThemeContext.Provider value={{ choice, resolved, setChoice }}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  return useContext(ThemeContext);
}
