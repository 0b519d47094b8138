// The check types this server runs: one module per type, registered here by its `type`.
import type { Checker } from '../checker.js';
import { alertmanagerChecker } from './alertmanager.js';
import { dnsChecker } from './dns.js';
import { elasticsearchChecker } from './elasticsearch.js';
import { execChecker } from './exec.js';
import { folderChecker } from './folder.js';
import { httpChecker } from './http.js';
import { icmpChecker } from './icmp.js';
import { junitChecker } from './junit.js';
import { kubernetesChecker } from './kubernetes.js';
import { ldapChecker } from './ldap.js';
import { mongodbChecker } from './mongodb.js';
import { mysqlChecker } from './mysql.js';
import { postgresChecker } from './postgres.js';
import { prometheusChecker } from './prometheus.js';
import { redisChecker } from './redis.js';
import { s3Checker } from './s3.js';
import { tcpChecker } from './tcp.js';

const all = [
  httpChecker,
  tcpChecker,
  dnsChecker,
  icmpChecker,
  execChecker,
  folderChecker,
  junitChecker,
  postgresChecker,
  mysqlChecker,
  redisChecker,
  mongodbChecker,
  prometheusChecker,
  alertmanagerChecker,
  elasticsearchChecker,
  ldapChecker,
  s3Checker,
  kubernetesChecker,
] as Checker[];

export const checkers: ReadonlyMap<string, Checker> = new Map(all.map((c) => [c.type, c]));
