// Link a component to a catalog item (spec/2 §2.6, §5): a name search returning at most 50 items,
// one selected, Link (disabled without a selection) → POST /api/catalog/config-links; success
// toasts 'config link successful' and refreshes the Catalog section, failure toasts the message.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../api/client';
import { Button } from '../../../ui/button';
import { cn } from '../../../ui/cn';
import { Dialog, DialogContent } from '../../../ui/dialog';
import { Input } from '../../../ui/input';
import { toast } from '../../../ui/toast';
import { topologyKeys } from '../keys';
import { CONFIG_SEARCH_LIMIT, topologyApi } from '../topologyApi';
import { HealthDot } from './HealthDot';

export const LINK_SUCCESS = 'config link successful';
const SEARCH_DEBOUNCE_MS = 400;

export function LinkCatalogDialog({
  component,
  onClose,
}: {
  component: { id: string; name: string } | null;
  onClose(): void;
}) {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const queryClient = useQueryClient();

  useEffect(() => {
    const t = setTimeout(() => setSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);

  const results = useQuery({
    queryKey: topologyKeys.configSearch(search),
    queryFn: ({ signal }) => topologyApi.searchConfigs(search, signal),
    enabled: component !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
    meta: { silent: true },
  });

  const link = useMutation({
    mutationFn: (configId: string) => topologyApi.linkConfig(component!.id, configId),
    onSuccess: async () => {
      toast.success(LINK_SUCCESS);
      await queryClient.invalidateQueries({ queryKey: topologyKeys.component(component!.id) });
      close();
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  function close() {
    setText('');
    setSearch('');
    setSelected(null);
    onClose();
  }

  const items = results.data ?? [];
  return (
    <Dialog open={component !== null} onOpenChange={(open) => !open && close()}>
      {component && (
        <DialogContent
          title="Link to catalog"
          description={`Choose the catalog item to link to ${component.name}.`}
          footer={
            <>
              <Button variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button disabled={!selected} loading={link.isPending} onClick={() => selected && link.mutate(selected)}>
                Link
              </Button>
            </>
          }
        >
          <div className="space-y-3">
            <div className="relative">
              <Search className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-subtle" aria-hidden />
              <Input
                aria-label="Search catalog"
                placeholder="Search catalog items by name"
                className="pl-8"
                value={text}
                onChange={(e) => setText(e.target.value)}
                autoFocus
              />
            </div>
            {results.isError ? (
              <p role="alert" className="text-[13px] text-danger">
                {errorMessage(results.error)}
              </p>
            ) : results.isPending ? (
              <p className="text-[13px] text-muted">Searching...</p>
            ) : items.length === 0 ? (
              <p className="text-[13px] text-muted">No result</p>
            ) : (
              <ul
                role="listbox"
                aria-label="Catalog items"
                className="max-h-72 overflow-y-auto rounded-md border border-border"
              >
                {items.map((c) => (
                  <li
                    key={c.id}
                    role="option"
                    aria-selected={selected === c.id}
                    onClick={() => setSelected(c.id)}
                    className={cn(
                      'flex cursor-pointer items-center gap-2 border-b border-border px-3 py-2 text-[13px] last:border-b-0 hover:bg-surface-hover',
                      selected === c.id && 'bg-primary-soft',
                    )}
                  >
                    <HealthDot health={c.health ?? 'unknown'} />
                    <span className="min-w-0 flex-1 truncate font-medium">{c.name ?? c.id}</span>
                    <span className="shrink-0 text-[12px] text-muted">{c.type}</span>
                  </li>
                ))}
              </ul>
            )}
            {items.length >= CONFIG_SEARCH_LIMIT && (
              <p className="text-[12px] text-subtle">Showing the first {CONFIG_SEARCH_LIMIT}; refine the search.</p>
            )}
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
