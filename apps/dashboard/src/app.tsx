import { lazy, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { api, isStatus } from './api.js';
import { LogIn, LogOutButton, SignUp } from './screens/account.js';
import { AcceptInvitation, ForgotPassword, ResetPassword, VerifyEmail } from './screens/account-links.js';
import { Campaign } from './screens/campaign.js';
import { Campaigns } from './screens/campaigns.js';
import { Contacts } from './screens/contacts.js';
import { ContactsImport } from './screens/contacts-import.js';
import { Domains } from './screens/domains.js';
import { Members } from './screens/members.js';
import { Segments } from './screens/segments.js';
import { Keys, listProjects, NotFound, Projects } from './screens/projects.js';
import { SessionContext, useSession, type SessionUser } from './session.js';
import { ErrorNote, Loading, useLoad } from './ui.js';

/** Screen 7 (workflows) is loaded when first opened: off the first screen's JavaScript. */
const Workflows = lazy(() => import('./screens/workflows.js').then((m) => m.Workflows));
const WorkflowPage = lazy(() => import('./screens/workflow.js').then((m) => m.WorkflowPage));
/** Screen 5 (templates, with the renderer of their preview) likewise. */
const Templates = lazy(() => import('./screens/templates.js').then((m) => m.Templates));
const TemplatePage = lazy(() => import('./screens/templates.js').then((m) => m.TemplatePage));
/** Screen 3's contact page (data editor, timeline) and fields list likewise. */
const Contact = lazy(() => import('./screens/contact.js').then((m) => m.Contact));
const ContactFields = lazy(() => import('./screens/contact-fields.js').then((m) => m.ContactFields));

/** Screens 9 (activity, analytics), 10 (webhooks), billing and security: lazy chunks too. */
const Activity = lazy(() => import('./screens/activity.js').then((m) => m.Activity));
const Analytics = lazy(() => import('./screens/analytics.js').then((m) => m.Analytics));
const Webhooks = lazy(() => import('./screens/webhooks.js').then((m) => m.Webhooks));
const Billing = lazy(() => import('./screens/billing.js').then((m) => m.Billing));

/** The dashboard's routes live under /app (and / itself): no API route starts there (ADR 0028). */
const PUBLIC_PATHS = ['/app/login', '/app/signup'];
/** The account emails' link pages (and the reset request): shown signed in or out. */
const OPEN_PATHS = ['/app/forgot-password', '/app/reset-password', '/app/verify-email', '/app/accept-invitation'];

export function App() {
  const [user, setUser] = useState<SessionUser | null | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(null);
  useEffect(() => {
    api()
      .request('get', '/users/@me')
      .then(
        (me) => setUser({ id: me.id, email: me.email, name: me.name }),
        (error: unknown) => (isStatus(error, 401) || isStatus(error, 403) ? setUser(null) : setFailure(error)),
      );
  }, []);
  return (
    <SessionContext.Provider value={{ user, setUser }}>
      <LocationProvider>
        <Shell failure={failure} />
      </LocationProvider>
    </SessionContext.Provider>
  );
}

function Shell({ failure }: { failure: unknown }) {
  const { user } = useSession();
  const { path, route } = useLocation();
  const signedOutPage = PUBLIC_PATHS.includes(path);
  useEffect(() => {
    if (user === null && !signedOutPage && !OPEN_PATHS.includes(path)) route('/app/login', true);
    else if (user && (signedOutPage || path === '/' || path === '/app')) route('/app/projects', true);
  }, [user, path]);
  return (
    <>
      <header class="top">
        <a class="brand" href="/app/projects">
          Herald
        </a>
        {user && <Nav email={user.email} />}
      </header>
      <main>
        {failure ? (
          <ErrorNote error={failure} retry={() => location.reload()} />
        ) : user === undefined ? (
          <Loading what="your session" />
        ) : (
          <Router>
            <Route path="/app/login" component={LogIn} />
            <Route path="/app/signup" component={SignUp} />
            <Route path="/app/forgot-password" component={ForgotPassword} />
            <Route path="/app/reset-password" component={ResetPassword} />
            <Route path="/app/verify-email" component={VerifyEmail} />
            <Route path="/app/accept-invitation" component={AcceptInvitation} />
            <Route path="/app/projects" component={Projects} />
            <Route path="/app/p/:projectId/keys" component={Keys} />
            <Route path="/app/p/:projectId/members" component={Members} />
            <Route path="/app/p/:projectId/contacts" component={Contacts} />
            <Route path="/app/p/:projectId/contacts/fields" component={ContactFields} />
            <Route path="/app/p/:projectId/contacts/:contactId" component={Contact} />
            <Route path="/app/p/:projectId/import" component={ContactsImport} />
            <Route path="/app/p/:projectId/domains" component={Domains} />
            <Route path="/app/p/:projectId/segments" component={Segments} />
            <Route path="/app/p/:projectId/templates" component={Templates} />
            <Route path="/app/p/:projectId/templates/:templateId" component={TemplatePage} />
            <Route path="/app/p/:projectId/campaigns" component={Campaigns} />
            <Route path="/app/p/:projectId/campaigns/:campaignId" component={Campaign} />
            <Route path="/app/p/:projectId/workflows" component={Workflows} />
            <Route path="/app/p/:projectId/workflows/:workflowId" component={WorkflowPage} />
            <Route path="/app/p/:projectId/activity" component={Activity} />
            <Route path="/app/p/:projectId/analytics" component={Analytics} />
            <Route path="/app/p/:projectId/webhooks" component={Webhooks} />
            <Route path="/app/p/:projectId/billing" component={Billing} />
            <Route default component={NotFound} />
          </Router>
        )}
      </main>
    </>
  );
}

/** The signed-in header: the project switcher (same screen, other project), the project's pages, log out. */
function Nav({ email }: { email: string }) {
  const { path, route } = useLocation();
  const projects = useLoad(listProjects, [path.startsWith('/app/p/') ? path.split('/')[3] : '']);
  const current = /^\/app\/p\/([^/]+)/.exec(path)?.[1];
  const screen =
    /^\/app\/p\/[^/]+\/(keys|members|contacts|domains|segments|templates|campaigns|workflows|activity|analytics|webhooks|billing)/.exec(
      path,
    )?.[1] ?? 'contacts';
  return (
    <nav aria-label="Main">
      <a href="/app/projects">Projects</a>
      {projects.state === 'ready' && projects.data.length > 0 && (
        <>
          <label for="project-switch" class="sr-only">
            Project
          </label>
          <select
            id="project-switch"
            value={current ?? ''}
            onChange={(e) => {
              const id = (e.target as HTMLSelectElement).value;
              if (id) route(`/app/p/${id}/${screen}`);
            }}
          >
            <option value="">Choose a project…</option>
            {projects.data.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </>
      )}
      {current && (
        <>
          <a href={`/app/p/${current}/contacts`}>Contacts</a>
          <a href={`/app/p/${current}/segments`}>Segments</a>
          <a href={`/app/p/${current}/templates`}>Templates</a>
          <a href={`/app/p/${current}/campaigns`}>Campaigns</a>
          <a href={`/app/p/${current}/workflows`}>Workflows</a>
          <a href={`/app/p/${current}/domains`}>Domains</a>
          <a href={`/app/p/${current}/keys`}>API keys</a>
          <a href={`/app/p/${current}/members`}>Members</a>
          <a href={`/app/p/${current}/activity`}>Activity</a>
          <a href={`/app/p/${current}/analytics`}>Analytics</a>
          <a href={`/app/p/${current}/webhooks`}>Webhooks</a>
          <a href={`/app/p/${current}/billing`}>Billing</a>
        </>
      )}
      <span class="muted">{email}</span>
      <LogOutButton />
    </nav>
  );
}
