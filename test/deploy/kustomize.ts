import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

/**
 * Renders deploy/'s Kustomize overlays with a real Kustomize (`kubectl kustomize`, v5) and checks
 * the objects against the Kubernetes API's schemas (kubernetes-models). ADR 0020 says why these.
 */

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** A rendered object: what the tests read of it (the schema check reads all of it). */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown> & { [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
  data?: Record<string, string>;
}

/** The first kubectl with Kustomize v5 or later: HERALD_KUBECTL, scripts/ensure-kubectl.sh's, then PATH's. */
export function findKubectl(): string {
  const candidates = [
    process.env.HERALD_KUBECTL,
    path.join(root, 'node_modules', '.cache', 'herald-kubectl', 'kubectl'),
    'kubectl',
  ].filter((c): c is string => Boolean(c));
  const tried: string[] = [];
  for (const candidate of candidates) {
    try {
      const version = execFileSync(candidate, ['version', '--client'], { encoding: 'utf8', stdio: 'pipe' });
      const major = Number(/Kustomize Version: v(\d+)/.exec(version)?.[1] ?? 0);
      if (major >= 5) return candidate;
      tried.push(`${candidate}: Kustomize ${major || 'unknown'}`);
    } catch {
      tried.push(`${candidate}: not found`);
    }
  }
  throw new Error(
    `no kubectl with Kustomize v5 (${tried.join('; ')}): run scripts/ensure-kubectl.sh, or set HERALD_KUBECTL`,
  );
}

/**
 * deploy/ copied to a scratch folder, with secrets.env made from its example (the base's Secret
 * generator reads it, and it is git-ignored) and any extra overlays the tests add.
 */
export function scratchDeploy(extraOverlays: Record<string, string> = {}): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-deploy-'));
  cpSync(path.join(root, 'deploy'), dir, { recursive: true });
  const secrets = path.join(dir, 'k8s', 'secrets.env');
  if (!existsSync(secrets)) cpSync(`${secrets}.example`, secrets);
  for (const [name, kustomization] of Object.entries(extraOverlays)) {
    mkdirSync(path.join(dir, 'overlays', name), { recursive: true });
    writeFileSync(path.join(dir, 'overlays', name, 'kustomization.yaml'), kustomization);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `kubectl kustomize <dir>`, parsed. Throws with Kustomize's message when the overlay does not render. */
export function render(kubectl: string, dir: string): K8sObject[] {
  const out = execFileSync(kubectl, ['kustomize', dir], { encoding: 'utf8', stdio: 'pipe', maxBuffer: 64 << 20 });
  return parseAllDocuments(out)
    .map((d) => d.toJS() as K8sObject)
    .filter(Boolean);
}

interface Validatable {
  validate(): void;
}
type ModelClass = new (data: object) => Validatable;

/**
 * The schema errors of an object (empty when valid), from the kubernetes-models class of its
 * apiVersion and kind: types, required fields, enumerations and formats of the Kubernetes API
 * (1.33). An apiVersion/kind the library does not know is an error too.
 */
export async function schemaErrors(o: K8sObject): Promise<string[]> {
  let Model: ModelClass;
  try {
    const mod = (await import(`kubernetes-models/${o.apiVersion}/${o.kind}`)) as Record<string, ModelClass>;
    Model = mod[o.kind]!;
  } catch {
    return [`${o.apiVersion} ${o.kind}: no schema for this apiVersion and kind`];
  }
  try {
    new Model(o).validate();
    return [];
  } catch (err) {
    return [`${o.kind}/${o.metadata?.name}: ${(err as Error).message}`];
  }
}

/** Whether a label selector (matchLabels, matchExpressions with In/NotIn/Exists/DoesNotExist) selects these labels. */
export function selects(
  selector:
    | {
        matchLabels?: Record<string, string>;
        matchExpressions?: { key: string; operator: string; values?: string[] }[];
      }
    | undefined,
  labels: Record<string, string>,
): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpressions = (selector.matchExpressions ?? []).every((e) => {
    const has = e.key in labels;
    if (e.operator === 'In') return has && (e.values ?? []).includes(labels[e.key]!);
    if (e.operator === 'NotIn') return !has || !(e.values ?? []).includes(labels[e.key]!);
    if (e.operator === 'Exists') return has;
    if (e.operator === 'DoesNotExist') return !has;
    return false;
  });
  return byLabels && byExpressions;
}
