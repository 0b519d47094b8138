// Shown in place of a page whose feature flag is off.
import { PowerOff } from 'lucide-react';
import { StatusPage } from './StatusPage';

export default function FeatureDisabledPage({ feature }: { feature: string }) {
  return (
    <StatusPage icon={PowerOff} tone="warning" title={`The ${feature} feature is disabled`} testId="feature-disabled">
      An administrator turned this feature off with the feature flag{' '}
      <code className="font-mono">{feature}.disable</code>.
    </StatusPage>
  );
}
