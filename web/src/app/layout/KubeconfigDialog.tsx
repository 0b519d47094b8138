// The kubeconfig dialog of the user menu (spec/1 §2): a download button, the kubectl command
// that uses the file, and a link to the docs. GET /api/kubeconfig returns a kubeconfig that
// points at this server and signs in as the user.
import { Download, ExternalLink } from 'lucide-react';
import { useState } from 'react';
import { request, errorMessage } from '../../api/client';
import { Button } from '../../ui/button';
import { CopyField } from '../../ui/copy-button';
import { Dialog, DialogContent } from '../../ui/dialog';
import { toast } from '../../ui/toast';
import { DOCS_LINKS } from './docsLinks';

export const KUBECONFIG_FILE = 'opsdeck-kubeconfig.yaml';
export const KUBECTL_COMMAND = `kubectl --kubeconfig ~/Downloads/${KUBECONFIG_FILE} apply -f <resource>.yaml`;

async function downloadKubeconfig() {
  const res = await request<string>('/api/kubeconfig', { headers: { Accept: 'application/yaml, text/yaml, */*' } });
  const text = typeof res.data === 'string' ? res.data : JSON.stringify(res.data, null, 2);
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = KUBECONFIG_FILE;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function KubeconfigDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Download kubeconfig"
        description="Manage Opsdeck resources (health checks, scrapers, topologies, playbooks) with kubectl. The file points at this server and signs in as you."
        footer={
          <>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Close
            </Button>
            <Button
              loading={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await downloadKubeconfig();
                } catch (e) {
                  toast.error(errorMessage(e));
                } finally {
                  setBusy(false);
                }
              }}
            >
              {!busy && <Download className="size-4" aria-hidden />}
              Download
            </Button>
          </>
        }
      >
        <div className="space-y-4">
          <div className="space-y-1.5">
            <p className="text-[13px] font-medium">1. Download the file</p>
            <p className="text-[13px] text-muted">
              It contains a personal access token: keep it private, like a password.
            </p>
          </div>
          <div className="space-y-1.5">
            <p className="text-[13px] font-medium">2. Apply resources with kubectl</p>
            <CopyField value={KUBECTL_COMMAND} label="Copy command" />
          </div>
          <a
            href={DOCS_LINKS.kubeconfig}
            target="_blank"
            rel="noreferrer"
            className="inline-flex items-center gap-1.5 text-[13px] font-medium text-primary hover:underline"
          >
            Read the kubectl guide <ExternalLink className="size-3.5" aria-hidden />
          </a>
        </div>
      </DialogContent>
    </Dialog>
  );
}
