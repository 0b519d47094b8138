// Stored connections opened for use: sealed secrets decrypted and `secret://name/key` /
// `configmap://name/key` references read from Kubernetes (the kubeconfig of KUBECONFIG, in the
// connection's namespace), with an error naming the reference when that cannot be done.
import { SECRET_REF } from '@opsdeck/common';
import { loadKubeConfig, loadKubernetesClient } from '../kubeconfig.js';
import { openSecret } from '../secrets.js';
import { describeKubeError, SpecError } from './errors.js';
import type { ResolvedConnection } from './resolve.js';

/** A `connections` row as stored (secrets sealed or references). */
export interface StoredConnection {
  name: string;
  namespace?: string | null;
  type: string;
  url: string | null;
  username: string | null;
  password: string | null;
  certificate: string | null;
  insecure_tls: boolean | null;
  properties: Record<string, string> | null;
}

/**
 * The value a reference points at. `field` names the connection field in messages. Throws SpecError
 * when no kubeconfig is configured, the object or key does not exist, or the cluster cannot be read.
 */
async function readSecretRef(field: string, ref: string, namespace: string): Promise<string> {
  const m = SECRET_REF.exec(ref);
  if (!m) throw new SpecError(`${field} ${ref} is not a reference (secret://<name>/<key> or configmap://<name>/<key>)`);
  const [, kind, name, key] = m as unknown as [string, 'secret' | 'configmap', string, string];
  let kc;
  try {
    kc = await loadKubeConfig(undefined);
  } catch (e) {
    throw new SpecError(`${field} ${ref} cannot be read: ${(e as Error).message}`);
  }
  if (!kc)
    throw new SpecError(
      `${field} ${ref} is read from Kubernetes, which needs a kubeconfig: set KUBECONFIG on the server, or enter the value itself`,
    );
  const { CoreV1Api } = await loadKubernetesClient();
  const api = kc.makeApiClient(CoreV1Api);
  const what = `${kind === 'secret' ? 'secret' : 'config map'} ${namespace}/${name}`;
  let data: Record<string, string> | undefined;
  try {
    if (kind === 'secret') {
      const secret = await api.readNamespacedSecret({ name, namespace });
      data = Object.fromEntries(
        Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
      );
      Object.assign(data, secret.stringData ?? {});
    } else {
      const cm = await api.readNamespacedConfigMap({ name, namespace });
      data = cm.data ?? {};
    }
  } catch (e) {
    throw new SpecError(`${field} ${ref}: cannot read ${what}: ${describeKubeError(e)}`);
  }
  const value = data[key];
  if (value === undefined) throw new SpecError(`${field} ${ref}: ${what} has no key "${key}"`);
  return value;
}

/** A stored secret column opened: decrypted, or read from where its reference points. */
async function openField(field: string, stored: string | null | undefined, namespace: string): Promise<string | null> {
  if (stored === null || stored === undefined || stored === '') return null;
  if (SECRET_REF.test(stored)) return readSecretRef(field, stored, namespace);
  return openSecret(stored);
}

/** A stored connection ready to use: secrets decrypted and references read. */
export async function openConnection(c: StoredConnection): Promise<ResolvedConnection> {
  const namespace = c.namespace || 'default';
  return {
    name: c.name,
    type: c.type,
    url: c.url,
    username: await openField('username', c.username, namespace),
    password: await openField('password', c.password, namespace),
    certificate: await openField('certificate', c.certificate, namespace),
    insecureTls: c.insecure_tls ?? false,
    properties: c.properties ?? {},
  };
}
