// The refresh-rate menu (spec/1 §9): None … 15m, options disabled by the range length, the
// choice stored locally and replaced by the next allowed option when the range disables it.
import { ChevronDown, RefreshCw } from 'lucide-react';
import {
  disabledRefreshRates,
  effectiveRefreshRate,
  isRefreshRate,
  REFRESH_RATES,
  refreshIntervalMs,
  type RefreshRate,
} from '@opsdeck/common/refreshRate';
import { Button } from './button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from './menu';
import { useStoredState } from './storage';

export interface RefreshRateState {
  chosen: RefreshRate;
  /** What applies for the current range (the fallback when the chosen one is disabled). */
  effective: RefreshRate;
  /** For react-query's refetchInterval: false when None. */
  intervalMs: number | false;
  setChosen(rate: RefreshRate): void;
  rangeMinutes: number | undefined;
}

export function useRefreshRate(storageKey: string, rangeMinutes: number | undefined): RefreshRateState {
  const [chosen, setChosen] = useStoredState<RefreshRate>(`opsdeck.refreshRate.${storageKey}`, 'None', isRefreshRate);
  const effective = effectiveRefreshRate(chosen, rangeMinutes);
  const ms = refreshIntervalMs(effective);
  return { chosen, effective, intervalMs: ms > 0 ? ms : false, setChosen, rangeMinutes };
}

export function RefreshRateMenu({ state }: { state: RefreshRateState }) {
  const off = disabledRefreshRates(state.rangeMinutes);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Refresh rate: ${state.effective}`} data-testid="refresh-rate">
          <RefreshCw className="size-3.5 text-muted" aria-hidden />
          <span>{state.effective === 'None' ? 'Auto refresh off' : `Every ${state.effective}`}</span>
          <ChevronDown className="size-3.5 text-subtle" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="min-w-40">
        <DropdownMenuLabel>Refresh rate</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={state.effective} onValueChange={(v) => isRefreshRate(v) && state.setChosen(v)}>
          {REFRESH_RATES.map((rate) => (
            <DropdownMenuRadioItem key={rate} value={rate} disabled={off.has(rate)}>
              {rate}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
