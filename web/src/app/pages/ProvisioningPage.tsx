// Shown while the identity call answers 404 or 5xx (spec/1 §2 sign-in routing).
import { Loader2 } from 'lucide-react';
import { Button } from '../../ui/button';

export const PROVISIONING_TEXT = 'Please wait, instance provisioning in-progress ...';

export function ProvisioningPage({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="flex h-full items-center justify-center bg-background px-6" data-testid="provisioning">
      <div className="text-center">
        <Loader2 className="mx-auto mb-4 size-8 animate-spin text-primary" aria-hidden />
        <p className="text-[15px] font-medium text-foreground">{PROVISIONING_TEXT}</p>
        <Button variant="outline" size="sm" className="mt-5" onClick={onRetry}>
          Try again
        </Button>
      </div>
    </div>
  );
}
