// What several channels show the same way: the link button's label, a colour per severity and state,
// and the message's fields as a template or webhook body sees them.
import type { NotificationMessage } from './sender.js';

export const LINK_LABEL = 'Open in Opsdeck';

/** Hex colour (#rrggbb) for the message: green when resolved, else by severity. */
export function severityColor(message: Pick<NotificationMessage, 'state' | 'severity'>): string {
  if (message.state === 'resolved') return '#2eb886';
  switch (message.severity) {
    case 'critical':
    case 'error':
      return '#d60510';
    case 'warning':
      return '#ffc441';
    default:
      return '#2488ff';
  }
}

/** The message as data: the default generic-webhook fields and what a body template reads. */
export function messageFields(message: NotificationMessage): Record<string, unknown> {
  return {
    title: message.title,
    message: message.body,
    body: message.body,
    html: message.html,
    permalink: message.permalink ?? '',
    state: message.state,
    severity: message.severity,
    dedupKey: message.dedupKey,
    resource: message.resource ?? null,
    properties: message.properties,
  };
}
