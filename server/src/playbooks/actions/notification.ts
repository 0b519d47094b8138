// `notification`: sends `title` and `message` by email over SMTP. `to` is an email address (sent
// with the server's SMTP_URL) or a connection (`connection://smtp/<name>` or a name) of type smtp or
// email whose URL is smtp(s):// and whose properties.to names the recipient (properties.from the
// sender). Result: to, subject.
import { z } from 'zod';
import { createMailer } from '../../auth/mailer.js';
import { connectionResolver } from '../../connections/resolve.js';
import type { PlaybookAction } from './action.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

const schema = z.looseObject({
  title: z.string({ error: 'title is required' }).min(1, 'title is required'),
  message: z.string().optional(),
  to: z.string({ error: 'to is required (an email address or an smtp connection)' }).min(1, 'to is required'),
});
export type NotificationActionSpec = z.infer<typeof schema>;

export const notificationAction: PlaybookAction<NotificationActionSpec> = {
  type: 'notification',
  schema,
  async run(spec, ctx) {
    const mail = { subject: spec.title, text: spec.message ?? '' };
    if (EMAIL.test(spec.to)) {
      const sent = await ctx.mail.mailer.send({ ...mail, to: spec.to });
      if (!sent)
        return {
          result: { to: spec.to },
          error: 'No SMTP server is configured (SMTP_URL): send through an smtp connection instead',
        };
      return { result: { to: spec.to, subject: spec.title } };
    }
    const conn = await connectionResolver(ctx.db)(spec.to);
    if (!conn) return { result: {}, error: `to: the connection "${spec.to}" was not found` };
    if (!/^(smtp|email)$/i.test(conn.type) || !conn.url || !/^smtps?:/i.test(conn.url))
      return { result: {}, error: `to: the connection "${spec.to}" is not an smtp connection with an smtp:// URL` };
    const to = conn.properties.to;
    if (!to) return { result: {}, error: `to: the connection "${spec.to}" has no properties.to recipient` };
    const url = new URL(conn.url);
    if (conn.username) url.username = encodeURIComponent(conn.username);
    if (conn.password) url.password = encodeURIComponent(conn.password);
    await createMailer(url.toString(), conn.properties.from ?? ctx.mail.from).send({ ...mail, to });
    return { result: { to, subject: spec.title } };
  },
};
