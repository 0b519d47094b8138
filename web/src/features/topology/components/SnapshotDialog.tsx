// Download a snapshot of a component as a zip (spec/2 §2.6): a time range (the first option is the
// default) and whether to include related components (default off); a downloading state, and the
// toast 'Error downloading file' when it fails.
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { Dialog, DialogContent } from '../../../ui/dialog';
import { Field, Select } from '../../../ui/input';
import { Switch } from '../../../ui/switch';
import { toast } from '../../../ui/toast';
import { fetchSnapshot, saveBlob } from '../topologyApi';

export const SNAPSHOT_ERROR = 'Error downloading file';

/** The time ranges offered; the first is the default. */
export const SNAPSHOT_RANGES = [
  { value: 'now-2d', label: 'Last 2 days' },
  { value: 'now-1h', label: 'Last 1 hour' },
  { value: 'now-6h', label: 'Last 6 hours' },
  { value: 'now-1d', label: 'Last 1 day' },
  { value: 'now-7d', label: 'Last 7 days' },
  { value: 'now-30d', label: 'Last 30 days' },
] as const;

export function SnapshotDialog({
  component,
  onClose,
}: {
  component: { id: string; name: string } | null;
  onClose(): void;
}) {
  const [start, setStart] = useState<string>(SNAPSHOT_RANGES[0].value);
  const [related, setRelated] = useState(false);
  const [downloading, setDownloading] = useState(false);

  async function download() {
    if (!component) return;
    setDownloading(true);
    try {
      const { blob, fileName } = await fetchSnapshot(component.id, start, related);
      saveBlob(blob, fileName);
      onClose();
    } catch (e) {
      console.error('snapshot download failed:', e);
      toast.error(SNAPSHOT_ERROR);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Dialog open={component !== null} onOpenChange={(open) => !open && !downloading && onClose()}>
      {component && (
        <DialogContent
          size="sm"
          title="Download snapshot"
          description={`A zip of ${component.name}: its details, checks, changes and insights over the chosen time.`}
          footer={
            <>
              <Button variant="outline" onClick={onClose} disabled={downloading}>
                Cancel
              </Button>
              <Button onClick={() => void download()} loading={downloading}>
                {!downloading && <Download className="size-4" />}
                {downloading ? 'Downloading...' : 'Download'}
              </Button>
            </>
          }
        >
          <div className="space-y-4">
            <Field label="Time range">
              {(id) => (
                <Select id={id} value={start} onChange={(e) => setStart(e.target.value)}>
                  {SNAPSHOT_RANGES.map((r) => (
                    <option key={r.value} value={r.value}>
                      {r.label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Switch label="Include related components" checked={related} onCheckedChange={setRelated} />
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
