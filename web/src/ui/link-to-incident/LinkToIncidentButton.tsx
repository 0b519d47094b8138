// The 'Link to Incident' button used by health, catalog and topology screens: opens the Link to
// Incident dialog for one piece of evidence. Hidden when the incidents feature is off or the
// user may not write incidents (spec/1 §6).
import { Link2 } from 'lucide-react';
import { useState } from 'react';
import { useCan, useSession } from '../../api/session';
import { Button } from '../button';
import type { EvidenceInput } from './incidentApi';
import { LinkToIncidentDialog } from './LinkToIncidentDialog';

export function LinkToIncidentButton({
  evidence,
  label = 'Link to Incident',
  className,
}: {
  evidence: EvidenceInput;
  label?: string;
  className?: string;
}) {
  const session = useSession();
  const canWrite = useCan('incident', 'write');
  const [open, setOpen] = useState(false);
  if (!canWrite || session.disabledFeatures.includes('incidents')) return null;
  return (
    <>
      <Button variant="outline" size="sm" className={className} onClick={() => setOpen(true)}>
        <Link2 className="size-3.5" aria-hidden />
        {label}
      </Button>
      <LinkToIncidentDialog open={open} onOpenChange={setOpen} evidence={evidence} />
    </>
  );
}
