import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import type { Result } from '@herald/sdk';
import { api, fieldErrors, isStatus } from '../api.js';
import { freshKeys, useSession } from '../session.js';
import { Empty, ErrorNote, Field, Loading, Page, RefusalAlert, useLoad, useRefusal } from '../ui.js';
import { listProjects, NotFound } from './projects.js';

type Project = Result<'meList'>[number];
type Role = Project['role'];
const ROLES: Role[] = ['OWNER', 'ADMIN', 'MEMBER'];
const isManager = (role: Role) => role === 'OWNER' || role === 'ADMIN';
const roleName = (role: Role) => role.toLowerCase();

/**
 * A project's settings and team: its name, its keys' rotation, the members with their roles, the
 * pending invitations and the invite form. Controls follow the caller's role as loaded (OWNER and
 * ADMIN manage; only an OWNER grants OWNER); the API decides, and its refusal (a role changed since)
 * is shown where the action was.
 */
export function Members({ projectId }: { projectId: string }) {
  const projects = useLoad(listProjects, [projectId]);
  const [saved, setSaved] = useState<Project | null>(null); // the project as its last save answered
  if (projects.state === 'loading') return <Loading what="the project" />;
  if (projects.state === 'error') return <ErrorNote error={projects.error} retry={projects.reload} />;
  const project = saved?.id === projectId ? saved : projects.data.find((p) => p.id === projectId);
  if (!project) return <NotFound />;
  return (
    <Page title={`Settings and members of ${project.name}`}>
      <p class="muted" data-my-role={project.role}>
        Your role: {roleName(project.role)}
        {isManager(project.role) ? '' : ' (owners and admins change the settings, the keys and the members)'}
      </p>
      {isManager(project.role) && <Settings project={project} onSaved={setSaved} />}
      <Team key={projectId} projectId={projectId} myRole={project.role} />
    </Page>
  );
}

function Settings({ project, onSaved }: { project: Project; onSaved: (project: Project) => void }) {
  const { route } = useLocation();
  const [name, setName] = useState(project.name);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [rotateFailure, setRotateFailure] = useState<unknown>(null);
  const refusal = useRefusal();
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setSaved(false);
    refusal.clear();
    try {
      const updated = await api().request('patch', '/users/@me/projects/{id}', {
        path: { id: project.id },
        body: { name },
      });
      setSaved(true);
      onSaved(updated);
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  const rotate = async () => {
    setBusy(true);
    setRotateFailure(null);
    try {
      const rotated = await api().request('post', '/users/@me/projects/{id}/regenerate-keys', {
        path: { id: project.id },
      });
      freshKeys.set(project.id, { secret: rotated.secretKey, public: rotated.publicKey });
      route(`/app/p/${project.id}/keys`);
    } catch (error) {
      setRotateFailure(error);
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <form class="card" onSubmit={(e) => void save(e)} noValidate>
        <h2>Settings</h2>
        <RefusalAlert message={refusal.message} />
        <Field name="name" label="Project name" value={name} error={refusal.fields.name} onInput={setName} required />
        <button type="submit" disabled={busy}>
          Save settings
        </button>{' '}
        <span class="muted" role="status">
          {saved ? 'Saved' : ''}
        </span>
      </form>
      <section class="card" aria-labelledby="rotate-heading">
        <h2 id="rotate-heading">API keys</h2>
        <p>Regenerating replaces the live secret and public keys at once: the old ones stop working.</p>
        {rotateFailure !== null && <ErrorNote error={rotateFailure} />}
        {confirming ? (
          <>
            <button type="button" disabled={busy} onClick={() => void rotate()}>
              Yes, regenerate the keys now
            </button>{' '}
            <button type="button" onClick={() => setConfirming(false)}>
              Keep the keys
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            Regenerate keys
          </button>
        )}
      </section>
    </>
  );
}

type Member = Result<'projectTeamList'>[number];
type Invitation = Result<'projectTeamListInvitations'>[number];

const loadTeam = async (projectId: string) => {
  const [members, invitations] = await Promise.all([
    api().request('get', '/projects/{id}/members', { path: { id: projectId } }),
    api().request('get', '/projects/{id}/invitations', { path: { id: projectId } }),
  ]);
  return { members, invitations };
};

type TeamData = Awaited<ReturnType<typeof loadTeam>>;

/**
 * The members, the pending invitations and (for a manager) the invite form. After each change the
 * lists are read again and replace the shown ones when they arrive: no flash of "Loading", no
 * moment showing the state before the change.
 */
function Team({ projectId, myRole }: { projectId: string; myRole: Role }) {
  const team = useLoad(() => loadTeam(projectId), [projectId]);
  const [fresh, setFresh] = useState<TeamData | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const act = async (action: () => Promise<unknown>) => {
    setFailure(null);
    try {
      await action();
    } catch (error) {
      setFailure(error);
    }
    // read again either way: after a refusal the screen shows what holds (a role select back to the role)
    const again = await loadTeam(projectId).catch(() => null); // unread: the last lists stay
    if (again) setFresh(again);
  };
  if (team.state === 'loading') return <Loading what="the members" />;
  if (team.state === 'error')
    return isStatus(team.error, 404) || isStatus(team.error, 403) ? (
      <NotFound />
    ) : (
      <ErrorNote error={team.error} retry={team.reload} />
    );
  const shown = fresh ?? team.data;
  return (
    <>
      <section class="card" aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        {failure !== null && <ErrorNote error={failure} />}
        <MemberTable projectId={projectId} myRole={myRole} members={shown.members} act={act} />
        <h3>Pending invitations</h3>
        <Invitations projectId={projectId} myRole={myRole} invitations={shown.invitations} act={act} />
      </section>
      {isManager(myRole) && (
        <Invite projectId={projectId} myRole={myRole} onInvited={() => void act(() => Promise.resolve())} />
      )}
    </>
  );
}

function MemberTable(props: {
  projectId: string;
  myRole: Role;
  members: Member[];
  act: (action: () => Promise<unknown>) => Promise<void>;
}) {
  const { user } = useSession();
  const [removing, setRemoving] = useState<string | null>(null);
  const path = (userId: string) => ({ path: { id: props.projectId, userId } });
  const manager = isManager(props.myRole);
  const changeRole = (m: Member, role: Role) =>
    props.act(() => api().request('patch', '/projects/{id}/members/{userId}', { ...path(m.userId), body: { role } }));
  const remove = (m: Member) =>
    props.act(async () => {
      setRemoving(null);
      await api().request('delete', '/projects/{id}/members/{userId}', path(m.userId));
    });
  return (
    <table>
      <caption class="sr-only">Members</caption>
      <thead>
        <tr>
          <th scope="col">Member</th>
          <th scope="col">Role</th>
          <th scope="col">Joined</th>
          <th scope="col">
            <span class="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.members.map((m) => {
          const self = m.userId === user?.id;
          // only an OWNER changes an OWNER's role or grants it
          const canChange = manager && (props.myRole === 'OWNER' || m.role !== 'OWNER');
          const canRemove = self || canChange;
          const roleId = `role-${m.userId}`;
          return (
            <tr key={m.userId} data-member={m.email}>
              <th scope="row">
                {m.email}
                {m.name ? <span class="muted"> ({m.name})</span> : null}
                {self ? <span class="muted"> (you)</span> : null}
              </th>
              <td>
                {canChange ? (
                  <>
                    <label for={roleId} class="sr-only">
                      Role of {m.email}
                    </label>
                    <select
                      id={roleId}
                      value={m.role}
                      onChange={(e) => void changeRole(m, (e.target as HTMLSelectElement).value as Role)}
                    >
                      {ROLES.filter((r) => r !== 'OWNER' || props.myRole === 'OWNER' || m.role === 'OWNER').map((r) => (
                        <option key={r} value={r}>
                          {roleName(r)}
                        </option>
                      ))}
                    </select>
                  </>
                ) : (
                  roleName(m.role)
                )}
              </td>
              <td>{new Date(m.joinedAt).toLocaleDateString()}</td>
              <td>
                {canRemove &&
                  (removing === m.userId ? (
                    <>
                      <button type="button" onClick={() => void remove(m)}>
                        {self ? 'Yes, leave the project' : `Yes, remove ${m.email}`}
                      </button>{' '}
                      <button type="button" onClick={() => setRemoving(null)}>
                        Cancel
                      </button>
                    </>
                  ) : (
                    <button type="button" onClick={() => setRemoving(m.userId)}>
                      {self ? 'Leave' : 'Remove'}
                      {self ? null : <span class="sr-only"> {m.email}</span>}
                    </button>
                  ))}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Invitations(props: {
  projectId: string;
  myRole: Role;
  invitations: Invitation[];
  act: (action: () => Promise<unknown>) => Promise<void>;
}) {
  if (props.invitations.length === 0) return <Empty>No pending invitation.</Empty>;
  return (
    <ul class="list">
      {props.invitations.map((i) => (
        <li key={i.id} data-invitation={i.email}>
          {i.email} <span class="muted">as {roleName(i.role)}</span>{' '}
          <span class="muted">until {new Date(i.expiresAt).toLocaleDateString()}</span>{' '}
          {isManager(props.myRole) && (
            <button
              type="button"
              onClick={() =>
                void props.act(() =>
                  api().request('delete', '/projects/{id}/invitations/{invitationId}', {
                    path: { id: props.projectId, invitationId: i.id },
                  }),
                )
              }
            >
              Revoke<span class="sr-only"> the invitation of {i.email}</span>
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Adds an address: an existing account joins at once (201), any other is invited by email (202). */
function Invite({ projectId, myRole, onInvited }: { projectId: string; myRole: Role; onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('MEMBER');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const refusal = useRefusal();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setDone('');
    refusal.clear();
    try {
      const added = await api().request('post', '/projects/{id}/members', {
        path: { id: projectId },
        body: { email, role },
      });
      setDone(
        'userId' in added
          ? `${added.email} joined as ${roleName(added.role)}.`
          : `Invitation sent to ${added.email} (${roleName(added.role)}).`,
      );
      setEmail('');
      onInvited();
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void submit(e)} noValidate>
      <h2>Invite someone</h2>
      <RefusalAlert message={refusal.message} />
      <Field
        name="email"
        label="Email address"
        type="email"
        value={email}
        error={refusal.fields.email}
        onInput={setEmail}
        required
      />
      <div class="field">
        <label for="invite-role">Role</label>
        <select id="invite-role" value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value as Role)}>
          {ROLES.filter((r) => r !== 'OWNER' || myRole === 'OWNER').map((r) => (
            <option key={r} value={r}>
              {roleName(r)}
            </option>
          ))}
        </select>
        {refusal.fields.role && <p class="field-error">{refusal.fields.role}</p>}
      </div>
      <button type="submit" disabled={busy}>
        Invite
      </button>{' '}
      <span class="muted" role="status">
        {done}
      </span>
    </form>
  );
}
