/** What a dashboard user gets after signing up and creating a project. */
export interface TestProject {
  cookie: string;
  userId: string;
  projectId: string;
  secretKey: string;
  publicKey: string;
}

/** The `name=value` part of the session cookie a response set. */
export function sessionCookie(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('herald_session='));
  if (!set) throw new Error(`no session cookie in the response (status ${res.status})`);
  return set.split(';', 1)[0]!;
}

export async function signUp(
  baseUrl: string,
  email: string,
  password = 'correct horse battery',
): Promise<{ cookie: string; userId: string }> {
  const res = await fetch(`${baseUrl}/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 201) throw new Error(`signup answered ${res.status}: ${await res.text()}`);
  const cookie = sessionCookie(res);
  return { cookie, userId: ((await res.json()) as { id: string }).id };
}

export async function createProject(
  baseUrl: string,
  cookie: string,
  name = 'Test project',
): Promise<Omit<TestProject, 'cookie' | 'userId'>> {
  const res = await fetch(`${baseUrl}/users/@me/projects`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 201) throw new Error(`create project answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { id: string; secretKey: string; publicKey: string };
  return { projectId: body.id, secretKey: body.secretKey, publicKey: body.publicKey };
}

/** A fresh account with one project, through the public API (as a newcomer would). */
export async function accountWithProject(
  baseUrl: string,
  email = `user-${Math.random().toString(36).slice(2)}@example.com`,
): Promise<TestProject> {
  const { cookie, userId } = await signUp(baseUrl, email);
  return { cookie, userId, ...(await createProject(baseUrl, cookie)) };
}

export const bearer = (key: string): Record<string, string> => ({
  authorization: `Bearer ${key}`,
  'content-type': 'application/json',
});
