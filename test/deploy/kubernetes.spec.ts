import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, SERVICES, ServiceConfig } from '@herald/core';
import { MetricsSettings } from '@herald/http';
import { serviceNamed } from '@herald/service-catalog';
import { findKubectl, type K8sObject, render, root, schemaErrors, scratchDeploy, selects } from './kustomize.js';

/**
 * deploy/'s Kustomize base and overlays, rendered by Kustomize itself and checked against the
 * Kubernetes schemas: every Deployment is probed, sized, autoscaled, covered by a disruption budget
 * and by network policies; only the gateway is reachable from outside; images are pinned; a pod
 * stops within its grace period; uploads have somewhere to go. The network policies follow the
 * code's call graph.
 */

const names = SERVICES.map((s) => s.name);
const portOf = Object.fromEntries(SERVICES.map((s) => [s.name, s.defaultPort])) as Record<string, number>;

// The overlays every deployment renders, and the production one with the consumer-lag component.
const LAG = 'production-with-lag-autoscaling';
const overlays = ['k8s', 'overlays/dev', 'overlays/production', `overlays/${LAG}`];
const scratch = scratchDeploy({
  [LAG]: 'resources:\n  - ../production\ncomponents:\n  - ../../components/lag-autoscaling\n',
});
afterAll(() => scratch.remove());
const kubectl = findKubectl();
const rendered = new Map(overlays.map((o) => [o, render(kubectl, path.join(scratch.dir, o))]));
const objectsOf = (overlay: string) => rendered.get(overlay)!;
const ofKind = (overlay: string, kind: string) => objectsOf(overlay).filter((o) => o.kind === kind);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const podLabels = (d: K8sObject): Record<string, string> => d.spec?.template?.metadata?.labels ?? {};
const podSpec = (d: K8sObject): Any => d.spec?.template?.spec ?? {};
const configOf = (overlay: string): Record<string, string> => ofKind(overlay, 'ConfigMap')[0]?.data ?? {};

describe('the checks below can fail', () => {
  it('the schema check refuses a Deployment whose replicas is not an integer, and an unknown kind', async () => {
    const broken = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'x' },
      spec: { replicas: 'two', selector: {}, template: { spec: { containers: [{ name: 'a' }] } } },
    };
    expect((await schemaErrors(broken)).join()).toMatch(/replicas must be integer/);
    expect(await schemaErrors({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'x' } })).toHaveLength(
      1,
    );
  });

  it('a label selector selects by matchLabels and matchExpressions', () => {
    const labels = { 'app.kubernetes.io/name': 'sending', tier: 'server' };
    expect(selects({ matchLabels: { tier: 'server' } }, labels)).toBe(true);
    expect(selects({ matchLabels: { tier: 'client' } }, labels)).toBe(false);
    expect(selects({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['server'] }] }, labels)).toBe(true);
    expect(selects({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['server'] }] }, labels)).toBe(false);
    expect(selects({}, labels)).toBe(true);
  });
});

describe.each(overlays)('deploy/%s', (overlay) => {
  const deployments = () => ofKind(overlay, 'Deployment');

  it('renders a Deployment per service', () => {
    expect(
      deployments()
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual([...names].sort());
  });

  it('every rendered object validates against the Kubernetes schema of its apiVersion and kind', async () => {
    const errors = (await Promise.all(objectsOf(overlay).map(schemaErrors))).flat();
    expect(errors).toEqual([]);
  });

  it('every container of every Deployment has liveness and readiness probes, CPU and memory requests and a memory limit', () => {
    const lacking = deployments().flatMap((d) =>
      (podSpec(d).containers as Any[]).flatMap((c) =>
        [
          c.livenessProbe ? '' : 'livenessProbe',
          c.readinessProbe ? '' : 'readinessProbe',
          c.resources?.requests?.cpu ? '' : 'requests.cpu',
          c.resources?.requests?.memory ? '' : 'requests.memory',
          c.resources?.limits?.memory ? '' : 'limits.memory',
        ]
          .filter(Boolean)
          .map((what) => `${d.metadata.name}/${c.name}: ${what}`),
      ),
    );
    expect(lacking).toEqual([]);
  });

  it('every Deployment has a PodDisruptionBudget selecting its pods that lets at most one go', () => {
    const budgets = ofKind(overlay, 'PodDisruptionBudget');
    for (const d of deployments()) {
      const mine = budgets.filter((b) => selects(b.spec?.selector, podLabels(d)));
      expect([d.metadata.name, mine.map((b) => b.spec?.maxUnavailable)]).toEqual([d.metadata.name, [1]]);
    }
  });

  it('every Deployment has a HorizontalPodAutoscaler on CPU that owns its replica count (at least 2 outside dev)', () => {
    const autoscalers = ofKind(overlay, 'HorizontalPodAutoscaler');
    const least = overlay === 'overlays/dev' ? 1 : 2;
    for (const d of deployments()) {
      const mine = autoscalers.filter(
        (h) => h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec?.scaleTargetRef?.name === d.metadata.name,
      );
      expect([d.metadata.name, mine.length]).toEqual([d.metadata.name, 1]);
      const spec = mine[0]!.spec!;
      expect([d.metadata.name, spec.minReplicas >= least, spec.maxReplicas >= spec.minReplicas]).toEqual([
        d.metadata.name,
        true,
        true,
      ]);
      expect((spec.metrics as Any[]).some((m) => m.type === 'Resource' && m.resource?.name === 'cpu')).toBe(true);
      expect([d.metadata.name, d.spec?.replicas]).toEqual([d.metadata.name, undefined]); // an apply would reset it
    }
  });

  it('every Herald pod falls under the default-deny policy, and every Deployment under a policy of its own', () => {
    const policies = ofKind(overlay, 'NetworkPolicy');
    const deny = policies.find((p) => p.metadata.name === 'herald-default-deny')!;
    expect(deny.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(deny.spec?.ingress ?? []).toEqual([]);
    expect(deny.spec?.egress ?? []).toEqual([]);
    const pods = objectsOf(overlay).filter((o) => o.spec?.template?.spec);
    expect(pods.filter((o) => !selects(deny.spec?.podSelector, podLabels(o))).map((o) => o.metadata.name)).toEqual([]);
    for (const d of deployments())
      expect([
        d.metadata.name,
        policies.some((p) => p.metadata.name === d.metadata.name && selects(p.spec?.podSelector, podLabels(d))),
      ]).toEqual([d.metadata.name, true]);
  });

  it('every image is pinned to a tag other than latest', () => {
    const images = objectsOf(overlay).flatMap((o) => (podSpec(o).containers ?? []).map((c: Any) => String(c.image)));
    expect(images.length).toBeGreaterThan(0);
    expect(images.filter((i) => !/:[\w.-]+$/.test(i.replace(/^[^/]*\//, '')) || /:latest$/.test(i))).toEqual([]);
  });

  it('no Service is exposed outside the cluster but the gateway, through the Ingress, and sending-inbound (SMTP on 25 to the listener)', () => {
    const exposed = ofKind(overlay, 'Service').filter((s) => (s.spec?.type ?? 'ClusterIP') !== 'ClusterIP');
    expect(exposed.map((s) => [s.metadata.name, s.spec?.type, s.spec?.ports])).toEqual([
      ['sending-inbound', 'LoadBalancer', [{ name: 'smtp', port: 25, targetPort: 'smtp' }]],
    ]);
    const backends = ofKind(overlay, 'Ingress').flatMap((i) =>
      (i.spec?.rules as Any[]).flatMap((r) => r.http.paths.map((p: Any) => p.backend.service.name)),
    );
    expect([...new Set(backends)]).toEqual(['gateway']);
    for (const i of ofKind(overlay, 'Ingress')) expect(i.spec?.tls?.[0]?.secretName).toBeTruthy();
  });

  it('a pod stops within its grace period: preStop sleep + SHUTDOWN_TIMEOUT_MS, with time to spare', () => {
    const timeoutMs = Number(configOf(overlay).SHUTDOWN_TIMEOUT_MS ?? new ServiceConfig().SHUTDOWN_TIMEOUT_MS);
    for (const d of deployments()) {
      const spec = podSpec(d);
      const sleep = (spec.containers as Any[]).map((c) => Number(c.lifecycle?.preStop?.exec?.command?.[1] ?? 0));
      const needed = Math.max(...sleep) + timeoutMs / 1000;
      expect([d.metadata.name, spec.terminationGracePeriodSeconds >= needed + 2]).toEqual([d.metadata.name, true]);
    }
  });

  it("each service's settings classes accept the environment its pods get (ConfigMap, Secret, env)", () => {
    const secret = Object.fromEntries(
      Object.entries(ofKind(overlay, 'Secret')[0]?.data ?? {}).map(([k, v]) => [
        k,
        Buffer.from(v, 'base64').toString(),
      ]),
    );
    for (const d of deployments()) {
      const container = podSpec(d).containers[0];
      const own = Object.fromEntries((container.env ?? []).map((e: Any) => [e.name, e.value]));
      const env = { ...configOf(overlay), ...secret, ...own };
      const classes = [serviceNamed(d.metadata.name).config ?? ServiceConfig, MetricsSettings];
      for (const cls of classes) expect(() => loadConfig(cls as new () => object, env)).not.toThrow();
    }
  });

  it('uploads have somewhere to go: with a read-only root filesystem, sending uses S3 or a shared volume', () => {
    const sending = deployments().find((d) => d.metadata.name === 'sending')!;
    const container = podSpec(sending).containers[0];
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    const config = configOf(overlay);
    const claims = (podSpec(sending).volumes ?? []).filter((v: Any) => v.persistentVolumeClaim).map((v: Any) => v.name);
    const mounted = (container.volumeMounts ?? []).find((m: Any) => claims.includes(m.name))?.mountPath;
    expect(Boolean(config.S3_BUCKET) || (mounted !== undefined && config.UPLOADS_DIR === mounted)).toBe(true);
  });
});

describe('the production overlay', () => {
  it('takes every image from a registry at one release tag', () => {
    const images = ofKind('overlays/production', 'Deployment').map((d) => podSpec(d).containers[0].image as string);
    const tags = new Set(images.map((i) => i.split(':').at(-1)));
    expect(tags.size).toBe(1);
    expect(images.filter((i) => !i.includes('/'))).toEqual([]);
  });

  it('the Ingress host is APP_URL host', () => {
    const host = ofKind('overlays/production', 'Ingress')[0]!.spec?.rules[0].host;
    expect(new URL(configOf('overlays/production').APP_URL!).host).toBe(host);
  });

  it('with the lag component, sending, segments, workflows and webhooks also scale on their consumer group lag', () => {
    const external = ofKind(`overlays/${LAG}`, 'HorizontalPodAutoscaler')
      .filter((h) => (h.spec?.metrics as Any[]).some((m) => m.type === 'External'))
      .map((h) => h.metadata.name)
      .sort();
    expect(external).toEqual(['segments', 'sending', 'webhooks', 'workflows']);
    expect(
      ofKind('overlays/production', 'HorizontalPodAutoscaler').filter((h) => h.spec?.metrics.length !== 1),
    ).toEqual([]);
  });
});

// ------------------------------------------------------------------------- who calls whom

/** Synchronous calls in the code: `calls.client(<Owner>Calls, …)` in a service's sources. */
function synchronousCalls(): [string, string][] {
  const edges: [string, string][] = [];
  const walk = (service: string, dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(service, p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts'))
        for (const [, owner] of readFileSync(p, 'utf8').matchAll(/\.client\(\s*([A-Z][a-z]+)Calls\b/g))
          edges.push([service, owner!.toLowerCase()]);
    }
  };
  for (const s of names) walk(s, path.join(root, 'libs', 'services', s, 'src'));
  return edges;
}

/** Read-your-writes: each reader asks the producers it consumes from (docs/consistency.md's table). */
function readYourWritesQuestions(): [string, string][] {
  const doc = readFileSync(path.join(root, 'docs', 'consistency.md'), 'utf8');
  return doc.split('\n').flatMap((line) => {
    const cells = line.split('|').map((c) => c.trim());
    if (!names.includes(cells[1] as (typeof names)[number]) || cells.length < 5) return [];
    return cells[3]!
      .split(',')
      .map((p) => p.trim())
      .filter((p) => names.includes(p as (typeof names)[number]))
      .map((producer): [string, string] => [cells[1]!, producer]);
  });
}

describe("the services' network policies follow the call graph", () => {
  const edges = [
    ...names.filter((n) => n !== 'gateway').map((n): [string, string] => ['gateway', n]), // the gateway's routes
    ...synchronousCalls(),
    ...readYourWritesQuestions(),
  ];
  const callersOf = (s: string) => [...new Set(edges.filter(([, to]) => to === s).map(([from]) => from))].sort();
  const calleesOf = (s: string) => [...new Set(edges.filter(([from]) => from === s).map(([, to]) => to))].sort();
  const policy = (s: string) => ofKind('k8s', 'NetworkPolicy').find((p) => p.metadata.name === s)!;
  const podNames = (peers: Any[]) => peers.map((p) => p.podSelector?.matchLabels?.['app.kubernetes.io/name']);

  it('the graph is read from the code and the docs (sending calls the gateway, contacts and domains)', () => {
    expect(calleesOf('sending')).toEqual(expect.arrayContaining(['gateway', 'contacts', 'domains']));
    expect(readYourWritesQuestions().length).toBeGreaterThan(20);
  });

  it.each(names)(
    '%s admits exactly the services that call it, and from outside at most the Ingress controller (sending: and SMTP from anywhere)',
    (s) => {
      const all = policy(s).spec!.ingress as Any[];
      // a rule without `from` admits every source: only sending's, on its inbound SMTP port
      const open = all.filter((r) => r.from === undefined);
      expect(open.map((r) => r.ports)).toEqual(s === 'sending' ? [[{ port: 'smtp' }]] : []);
      const rules = all.filter((r) => r.from !== undefined);
      const fromPods = rules.flatMap((r) => r.from.filter((p: Any) => p.podSelector));
      expect(podNames(fromPods).sort()).toEqual(callersOf(s));
      const fromNamespaces = rules.flatMap((r) => r.from.filter((p: Any) => !p.podSelector));
      expect(fromNamespaces.length).toBe(s === 'gateway' ? 1 : 0);
      expect(fromNamespaces.every((p: Any) => p.namespaceSelector && !p.ipBlock)).toBe(true);
    },
  );

  it.each(names)('%s may reach each service it calls on its port, and no other', (s) => {
    const rules = policy(s).spec!.egress as Any[];
    const reached = rules.map((r) => [podNames(r.to)[0], r.ports[0].port]);
    expect(reached.sort()).toEqual(calleesOf(s).map((c) => [c, portOf[c]]));
  });

  it('outside the services, Herald pods accept connections only from Prometheus, on their metrics port', () => {
    const shared = ofKind('k8s', 'NetworkPolicy').filter((p) => !names.includes(p.metadata.name as never));
    const admitting = shared.filter((p) => (p.spec?.ingress ?? []).length > 0);
    expect(admitting.map((p) => p.metadata.name)).toEqual(['herald-ingress-metrics']);
    expect(admitting[0]!.spec!.ingress[0].ports).toEqual([{ port: 'metrics' }]);
    for (const d of ofKind('k8s', 'Deployment'))
      expect(podSpec(d).containers[0].ports).toEqual(
        expect.arrayContaining([{ name: 'metrics', containerPort: new MetricsSettings().METRICS_PORT }]),
      );
    const routed = ofKind('k8s', 'Service').flatMap((s) => (s.spec?.ports as Any[]).map((p) => p.targetPort));
    expect(routed.filter((p) => p === 'metrics' || p === new MetricsSettings().METRICS_PORT)).toEqual([]);
  });
});
