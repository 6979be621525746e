import { useEffect, useState } from 'preact/hooks';
import type { components } from '@herald/sdk';

export type Step = components['schemas']['StepView'];
export type Transition = components['schemas']['TransitionView'];

const W = 200;
const H = 56;
const GAP_Y = 110;
const PAD = 24;

const COLORS: Record<string, string> = {
  SEND_EMAIL: '#e8f0fe',
  CONDITION: '#fff4e5',
  DELAY: '#f2f4f7',
  WAIT_FOR_EVENT: '#f4ebff',
  EXIT: '#fef3f2',
  TRIGGER: '#ecfdf3',
};

/** The step's order: the integer `position`, or (coordinates) its place in the list the API keeps by order. */
const orderOf = (s: Step, i: number) => (typeof s.position === 'number' ? s.position : i);

/**
 * Where each step is drawn: at its canvas coordinates when it has them (`position: {x, y}`), else
 * in a column by its order. The trigger is drawn above the entry step (the first by order that no
 * transition leads to: the one an execution starts at).
 */
export function layout(steps: Step[], transitions: Transition[]) {
  const at = new Map<string, { x: number; y: number }>();
  const ordered = steps.map((s, i) => ({ s, o: orderOf(s, i) })).sort((a, b) => a.o - b.o);
  ordered.forEach(({ s }, i) => {
    at.set(s.id, typeof s.position === 'object' ? { x: s.position.x, y: s.position.y } : { x: 0, y: i * GAP_Y });
  });
  const entered = new Set(transitions.map((t) => t.toStepId));
  const entry = ordered.find(({ s }) => !entered.has(s.id))?.s;
  const ys = [...at.values()].map((p) => p.y);
  const trigger = entry ? { x: at.get(entry.id)!.x, y: Math.min(...ys) - GAP_Y } : { x: 0, y: -GAP_Y };
  return { at, entry, trigger };
}

type Point = { x: number; y: number };
/** A node being dragged: where the pointer went down, and how far it has moved since. */
type Drag = { id: string; pointer: number; from: Point; dx: number; dy: number };
/** How far (px) a pointer moves before a press becomes a drag. */
const DRAG_SLOP = 4;

/**
 * The workflow's graph as SVG: the trigger, each step a node at its position, each transition an
 * arrow labelled with its branch. Clicking a node selects its step (the step list under the graph
 * does the same from the keyboard); dragging one moves it (`onMove` with its new coordinates, kept
 * where it was dropped until the steps come back); `statuses` colours the border by a step run's status.
 */
export function WorkflowGraph(props: {
  eventName: string | undefined;
  steps: Step[];
  transitions: Transition[];
  selected: string | null;
  statuses?: Record<string, string> | undefined;
  onSelect: (stepId: string) => void;
  onMove: (stepId: string, to: Point) => void;
}) {
  const { steps, transitions } = props;
  const { at: placed, entry, trigger } = layout(steps, transitions);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [dropped, setDropped] = useState<Record<string, Point>>({});
  useEffect(() => setDropped({}), [steps]);
  // the bounds are the placed nodes': a node dragged past them is clipped until it is dropped
  const points = [trigger, ...placed.values()];
  const at = new Map(placed);
  for (const [id, p] of Object.entries(dropped)) at.set(id, p);
  if (drag) at.set(drag.id, { x: placed.get(drag.id)!.x + drag.dx, y: placed.get(drag.id)!.y + drag.dy });
  const press = (id: string) => (e: PointerEvent) => {
    (e.currentTarget as Element).setPointerCapture(e.pointerId);
    setDrag({ id, pointer: e.pointerId, from: { x: e.clientX, y: e.clientY }, dx: 0, dy: 0 });
  };
  const move = (e: PointerEvent) => {
    if (drag && e.pointerId === drag.pointer)
      setDrag({ ...drag, dx: e.clientX - drag.from.x, dy: e.clientY - drag.from.y });
  };
  const release = () => {
    if (!drag) return;
    setDrag(null);
    if (Math.abs(drag.dx) + Math.abs(drag.dy) < DRAG_SLOP) return;
    const base = placed.get(drag.id)!;
    const to = { x: Math.round(base.x + drag.dx), y: Math.round(base.y + drag.dy) };
    setDropped((d) => ({ ...d, [drag.id]: to }));
    props.onMove(drag.id, to);
  };
  const minX = Math.min(...points.map((p) => p.x)) - PAD;
  const minY = Math.min(...points.map((p) => p.y)) - PAD;
  const width = Math.max(...points.map((p) => p.x)) + W + PAD - minX;
  const height = Math.max(...points.map((p) => p.y)) + H + PAD - minY;
  const names = new Map(steps.map((s) => [s.id, s.name]));
  const summary =
    `Trigger ${props.eventName ?? '(no event name)'}; ${steps.length} step(s): ` +
    transitions
      .map((t) => `${names.get(t.fromStepId)} to ${names.get(t.toStepId)}${t.branch ? ` (${t.branch})` : ''}`)
      .join(', ');
  return (
    <svg
      class="graph"
      role="img"
      aria-labelledby="graph-title"
      viewBox={`${minX} ${minY} ${width} ${height}`}
      width={width}
      height={height}
    >
      <title id="graph-title">{summary}</title>
      <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto">
          <path d="M0,0 L10,5 L0,10 z" fill="#475467" />
        </marker>
      </defs>
      {entry && <Edge from={trigger} to={at.get(entry.id)!} label={null} name="trigger" />}
      {transitions.map((t) => {
        const from = at.get(t.fromStepId);
        const to = at.get(t.toStepId);
        if (!from || !to) return null;
        return (
          <Edge
            key={t.id}
            from={from}
            to={to}
            label={t.branch}
            name={`${names.get(t.fromStepId)}->${names.get(t.toStepId)}`}
          />
        );
      })}
      <Node
        x={trigger.x}
        y={trigger.y}
        kind="TRIGGER"
        title="When tracked"
        subtitle={props.eventName ?? '(no event)'}
      />
      {steps.map((s) => (
        <Node
          key={s.id}
          x={at.get(s.id)!.x}
          y={at.get(s.id)!.y}
          kind={s.type}
          title={s.name}
          subtitle={s.type.toLowerCase().replace(/_/g, ' ')}
          selected={props.selected === s.id}
          status={props.statuses?.[s.id]}
          onClick={() => props.onSelect(s.id)}
          onPointerDown={press(s.id)}
          onPointerMove={move}
          onPointerUp={release}
          onPointerCancel={() => setDrag(null)}
        />
      ))}
    </svg>
  );
}

/** A step run's status (PENDING, DONE, FAILED, CANCELLED) as the node's border. */
const STATUS_STROKE: Record<string, string> = {
  DONE: '#05603a',
  FAILED: '#b42318',
  PENDING: '#6941c6',
  CANCELLED: '#475467',
};

function Node(props: {
  x: number;
  y: number;
  kind: string;
  title: string;
  subtitle: string;
  selected?: boolean;
  status?: string | undefined;
  onClick?: () => void;
  onPointerDown?: (e: PointerEvent) => void;
  onPointerMove?: (e: PointerEvent) => void;
  onPointerUp?: () => void;
  onPointerCancel?: () => void;
}) {
  const stroke = props.status ? (STATUS_STROKE[props.status] ?? '#0b57d0') : props.selected ? '#0b57d0' : '#8a94a6';
  return (
    <g
      class="node"
      data-node={props.kind === 'TRIGGER' ? 'trigger' : props.title}
      data-status={props.status}
      transform={`translate(${props.x} ${props.y})`}
      onClick={props.onClick}
      onPointerDown={props.onPointerDown}
      onPointerMove={props.onPointerMove}
      onPointerUp={props.onPointerUp}
      onPointerCancel={props.onPointerCancel}
    >
      <rect
        width={W}
        height={H}
        rx="8"
        fill={COLORS[props.kind] ?? '#fff'}
        stroke={stroke}
        stroke-width={props.selected || props.status ? 3 : 1}
      />
      <text x="12" y="22" font-weight="600" fill="#1b1f24">
        {props.title.length > 24 ? `${props.title.slice(0, 23)}…` : props.title}
      </text>
      <text x="12" y="42" font-size="12" fill="#344054">
        {props.subtitle}
        {props.status ? ` · ${props.status.toLowerCase()}` : ''}
      </text>
    </g>
  );
}

function Edge(props: {
  from: { x: number; y: number };
  to: { x: number; y: number };
  label: string | null;
  name: string;
}) {
  const x1 = props.from.x + W / 2;
  const y1 = props.from.y + H;
  const x2 = props.to.x + W / 2;
  const y2 = props.to.y;
  return (
    <g class="edge" data-edge={props.name} data-branch={props.label ?? ''}>
      <line x1={x1} y1={y1} x2={x2} y2={y2} stroke="#475467" stroke-width="1.5" marker-end="url(#arrow)" />
      {props.label && (
        <text
          x={(x1 + x2) / 2 + 6}
          y={(y1 + y2) / 2 + 4}
          font-size="12"
          fill="#1b1f24"
          stroke="#fff"
          stroke-width="4"
          paint-order="stroke"
        >
          {props.label}
        </text>
      )}
    </g>
  );
}
