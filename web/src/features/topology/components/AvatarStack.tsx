// Team avatars on a card: at most five, then '+n' (spec/2 §2.6).
import { Tooltip } from '../../../ui/tooltip';
import { avatarStack, initials } from '../properties';
import type { CardTeam } from '../types';

export function AvatarStack({ teams }: { teams: readonly CardTeam[] }) {
  if (!teams.length) return null;
  const { shown, more } = avatarStack(teams);
  return (
    <div className="flex -space-x-1.5" aria-label="Teams" data-testid="team-avatars">
      {shown.map((t) => (
        <Tooltip key={t.team_id} content={t.name}>
          <span
            aria-label={t.name}
            className="inline-flex size-6 items-center justify-center overflow-hidden rounded-full border-2 border-surface bg-primary-soft text-[10px] font-semibold text-primary"
          >
            {t.icon && /^(https?:|data:|\/)/.test(t.icon) ? (
              <img src={t.icon} alt="" className="size-full object-cover" />
            ) : (
              initials(t.name)
            )}
          </span>
        </Tooltip>
      ))}
      {more > 0 && (
        <span className="inline-flex size-6 items-center justify-center rounded-full border-2 border-surface bg-surface-muted text-[10px] font-semibold text-muted">
          +{more}
        </span>
      )}
    </div>
  );
}
