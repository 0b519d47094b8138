// The connection testers by type: adding a kind of system means one file and one line here. Types
// without a tester (PagerDuty: its Events API has no read call that checks a routing key) answer 501
// (docs/api.md "Connections"). SMB is tested with Samba's smbclient program (smb.ts).
import { connectionType } from '@opsdeck/common';
import { gotifyTester, genericWebhookTester, ntfyTester, opsgenieTester } from './alerting.js';
import { discordTester, mattermostTester, slackTester, telegramTester, webhookUrlTester } from './chat.js';
import { awsTester, azureTester, gcpTester, s3Tester } from './cloud.js';
import { mongoTester, mysqlTester, postgresTester, redisTester } from './databases.js';
import { gitTester } from './git.js';
import { kubernetesTester } from './kubernetes.js';
import { httpTester, lokiTester, opensearchTester, prometheusTester } from './observability.js';
import { sftpTester } from './sftp.js';
import { smbTester } from './smb.js';
import { smtpTester } from './smtp.js';
import { githubTester, gitlabTester } from './sourceControl.js';
import { sqlServerTester } from './sqlServer.js';
import type { ConnectionTester } from './tester.js';

export const testers: readonly ConnectionTester[] = [
  postgresTester,
  mysqlTester,
  sqlServerTester,
  mongoTester,
  redisTester,
  smtpTester,
  slackTester,
  discordTester,
  telegramTester,
  mattermostTester,
  webhookUrlTester,
  gotifyTester,
  ntfyTester,
  opsgenieTester,
  genericWebhookTester,
  prometheusTester,
  lokiTester,
  opensearchTester,
  httpTester,
  githubTester,
  gitlabTester,
  gitTester,
  s3Tester,
  awsTester,
  azureTester,
  gcpTester,
  sftpTester,
  smbTester,
  kubernetesTester,
];

const byType = new Map<string, ConnectionTester>();
for (const t of testers) for (const type of t.types) byType.set(type, t);

/** The tester of a connection type (any spelling the type table accepts); undefined when none. */
export function testerFor(type: string): ConnectionTester | undefined {
  const canonical = connectionType(type)?.type;
  return canonical ? byType.get(canonical) : undefined;
}

export { runConnectionTest, TEST_TIMEOUT_MS } from './run.js';
