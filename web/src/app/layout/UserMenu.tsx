// The user menu (spec/1 §1, §2): 'Hi {name}', Your Profile, Download kubeconfig, the frontend and
// backend versions, the theme, and Sign out (which returns to this path after signing in again).
import { useQueryClient } from '@tanstack/react-query';
import { Download, LogOut, Monitor, Moon, Sun, UserRound } from 'lucide-react';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api, signInUrl } from '../../api/client';
import { useAbout, useSession } from '../../api/session';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../ui/menu';
import { useTheme, type ThemeChoice } from '../../ui/theme';
import { toast } from '../../ui/toast';
import { KubeconfigDialog } from './KubeconfigDialog';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase();
}

export function UserMenu() {
  const session = useSession();
  const about = useAbout();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { choice, setChoice } = useTheme();
  const [kubeconfigOpen, setKubeconfigOpen] = useState(false);
  const name = session.person.name || session.person.email;

  const signOut = async () => {
    const returnTo = signInUrl(location);
    try {
      await api.post('/api/auth/sign-out', {}, { on401: 'throw' });
    } catch (e) {
      // A session that is already gone is signed out; anything else is worth saying.
      if (!(e instanceof Error && 'status' in e && (e as { status: number }).status === 401))
        toast.error((e as Error).message);
    }
    queryClient.clear();
    navigate(returnTo, { replace: true });
  };

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <button
            type="button"
            className="flex cursor-pointer items-center gap-2 rounded-full p-0.5 pr-1 hover:bg-surface-hover"
            aria-label="User menu"
            data-testid="user-menu"
          >
            {session.person.avatar ? (
              <img src={session.person.avatar} alt="" className="size-8 rounded-full object-cover" />
            ) : (
              <span className="flex size-8 items-center justify-center rounded-full bg-primary text-[12px] font-semibold text-primary-foreground">
                {initials(name)}
              </span>
            )}
          </button>
        </DropdownMenuTrigger>
        <DropdownMenuContent className="w-64">
          <div className="px-2.5 py-2">
            <p className="text-sm font-semibold text-foreground" data-testid="user-greeting">
              Hi {name}
            </p>
            <p className="truncate text-[12.5px] text-muted">{session.person.email}</p>
          </div>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => navigate('/profile-settings')}>
            <UserRound className="size-4 text-muted" aria-hidden /> Your Profile
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setKubeconfigOpen(true)}>
            <Download className="size-4 text-muted" aria-hidden /> Download kubeconfig
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuLabel>Theme</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={choice} onValueChange={(v) => setChoice(v as ThemeChoice)}>
            <DropdownMenuRadioItem value="system" onSelect={(e) => e.preventDefault()}>
              <Monitor className="size-4 text-muted" aria-hidden /> System
            </DropdownMenuRadioItem>
            <DropdownMenuRadioItem value="light" onSelect={(e) => e.preventDefault()}>
              <Sun className="size-4 text-muted" aria-hidden /> Light
            </DropdownMenuRadioItem>
            <DropdownMenuRadioItem value="dark" onSelect={(e) => e.preventDefault()}>
              <Moon className="size-4 text-muted" aria-hidden /> Dark
            </DropdownMenuRadioItem>
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          <div className="space-y-0.5 px-2.5 py-1.5 text-[12px] text-muted" data-testid="versions">
            <p>
              Frontend <span className="font-mono text-foreground">{__APP_VERSION__}</span>
            </p>
            <p>
              Backend <span className="font-mono text-foreground">{about.data?.version ?? '…'}</span>
            </p>
          </div>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={signOut} className="text-danger data-[highlighted]:text-danger">
            <LogOut className="size-4" aria-hidden /> Sign out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <KubeconfigDialog open={kubeconfigOpen} onOpenChange={setKubeconfigOpen} />
    </>
  );
}
