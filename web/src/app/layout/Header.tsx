// The page header (spec/1 §2): title, the page's extra controls, a refresh button that spins
// while loading, the theme toggle, the notifications bell, the docs menu and the user menu.
import { Bell, BookOpen, ExternalLink, Menu, Moon, RefreshCw, Sun } from 'lucide-react';
import { Link, useMatches } from 'react-router';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '../../ui/menu';
import { usePageHeaderConfig } from '../../ui/page-header';
import { useTheme } from '../../ui/theme';
import { Tooltip } from '../../ui/tooltip';
import { DOCS_LINKS } from './docsLinks';
import { UserMenu } from './UserMenu';

export interface RouteHandle {
  title?: string;
}

function useRouteTitle(): string | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const title = (matches[i].handle as RouteHandle | undefined)?.title;
    if (title) return title;
  }
  return undefined;
}

export function Header({ onMenu, showMenuButton }: { onMenu(): void; showMenuButton: boolean }) {
  const config = usePageHeaderConfig();
  const routeTitle = useRouteTitle();
  const { resolved, setChoice } = useTheme();
  const title = config.title ?? routeTitle;

  return (
    <header className="sticky top-0 z-30 flex min-h-14 shrink-0 flex-wrap items-center gap-x-3 gap-y-2 border-b border-border bg-surface/90 px-4 py-2 backdrop-blur lg:px-6">
      {showMenuButton && (
        <Button variant="ghost" size="icon-sm" aria-label="Open navigation" onClick={onMenu}>
          <Menu className="size-5" />
        </Button>
      )}
      <h1
        className="min-w-0 truncate text-[17px] font-semibold tracking-tight text-foreground"
        data-testid="page-title"
      >
        {title}
      </h1>
      {/* Page controls: beside the title on wide screens, on their own row below it on narrow ones. */}
      {config.extra && (
        <div className="order-last flex w-full flex-wrap items-center gap-2 md:order-none md:ml-auto md:w-auto">
          {config.extra}
        </div>
      )}
      <div className={cn('ml-auto flex items-center gap-2', !!config.extra && 'md:ml-0')}>
        {config.onRefresh && (
          <Tooltip content="Refresh">
            <Button
              variant="outline"
              size="icon-sm"
              aria-label="Refresh"
              onClick={config.onRefresh}
              data-testid="refresh"
            >
              <RefreshCw
                className={cn('size-4', config.loading && 'animate-spin')}
                data-loading={config.loading || undefined}
              />
            </Button>
          </Tooltip>
        )}
        <div className="mx-1 hidden h-6 w-px bg-border sm:block" />
        <Tooltip content={resolved === 'dark' ? 'Light mode' : 'Dark mode'}>
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label={resolved === 'dark' ? 'Switch to light mode' : 'Switch to dark mode'}
            onClick={() => setChoice(resolved === 'dark' ? 'light' : 'dark')}
            data-testid="theme-toggle"
          >
            {resolved === 'dark' ? <Sun className="size-[18px]" /> : <Moon className="size-[18px]" />}
          </Button>
        </Tooltip>
        <Tooltip content="Notifications">
          <Button asChild variant="ghost" size="icon-sm">
            <Link to="/notifications" aria-label="Notifications">
              <Bell className="size-[18px]" />
            </Link>
          </Button>
        </Tooltip>
        <DropdownMenu>
          <Tooltip content="Documentation">
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon-sm" aria-label="Docs">
                <BookOpen className="size-[18px]" />
              </Button>
            </DropdownMenuTrigger>
          </Tooltip>
          <DropdownMenuContent>
            <DropdownMenuLabel>Documentation</DropdownMenuLabel>
            {[
              { label: 'Getting started', href: DOCS_LINKS.home },
              { label: 'HTTP API', href: DOCS_LINKS.api },
              { label: 'Identity and access', href: DOCS_LINKS.identity },
              { label: 'Architecture', href: DOCS_LINKS.architecture },
            ].map((d) => (
              <DropdownMenuItem key={d.href} asChild>
                <a href={d.href} target="_blank" rel="noreferrer">
                  <span className="flex-1">{d.label}</span>
                  <ExternalLink className="size-3.5 text-subtle" aria-hidden />
                </a>
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
        <UserMenu />
      </div>
    </header>
  );
}
