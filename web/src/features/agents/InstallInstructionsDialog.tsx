// 'Installation Instructions' (spec/1 §2, §4): shown once after an agent is created, with the access
// token and the ways to run the agent against this console (command line, container, Helm CLI, Flux),
// each with a copy button. The token cannot be read again once the dialog is closed.
import { useAbout } from '../../api/session';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { CopyField } from '../../ui/copy-button';
import { Dialog, DialogContent } from '../../ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { installSnippets, type InstallTarget } from './installSnippets';

export const TOKEN_SHOWN_ONCE =
  'The access token is shown only once: copy it now. It cannot be shown again after this dialog is closed.';

export function InstallInstructionsDialog({
  target,
  onClose,
}: {
  /** The new agent; without a version the console's backend version is the image tag. */
  target: Omit<InstallTarget, 'version'> | undefined;
  onClose(): void;
}) {
  const about = useAbout();
  const full = target ? { ...target, version: about.data?.version } : undefined;
  const snippets = full ? installSnippets(full) : [];
  return (
    <Dialog open={!!full} onOpenChange={(open) => !open && onClose()}>
      {full && (
        <DialogContent
          title="Installation Instructions"
          description={`Run the agent ${full.agentName} where its checks and scrapers should run.`}
          size="lg"
          footer={<Button onClick={onClose}>Done</Button>}
        >
          <div className="space-y-4">
            <Alert tone="warning">{TOKEN_SHOWN_ONCE}</Alert>
            <section className="space-y-1.5" aria-label="Access token">
              <h3 className="text-[13px] font-medium text-foreground">Access token</h3>
              <CopyField value={full.token} label="Copy access token" />
            </section>
            <Tabs defaultValue="cli">
              <TabsList>
                {snippets.map((s) => (
                  <TabsTrigger key={s.id} value={s.id}>
                    {s.label}
                  </TabsTrigger>
                ))}
              </TabsList>
              {snippets.map((s) => (
                <TabsContent key={s.id} value={s.id} className="space-y-3 pt-4">
                  {s.blocks.map((b) => (
                    <section key={b.title} className="space-y-1.5" aria-label={b.title}>
                      <h3 className="text-[13px] font-medium text-foreground">{b.title}</h3>
                      <CopyField value={b.text} label={`Copy ${b.title}`} />
                    </section>
                  ))}
                </TabsContent>
              ))}
            </Tabs>
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
