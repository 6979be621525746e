import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
}

export interface Session {
  /** undefined while GET /users/@me is on its way; null when signed out. */
  user: SessionUser | null | undefined;
  setUser: (user: SessionUser | null) => void;
}

export const SessionContext = createContext<Session>({ user: undefined, setUser: () => undefined });

export const useSession = () => useContext(SessionContext);

/** The full keys of a project just created: the API shows them once, so they live in memory only. */
export const freshKeys = new Map<string, Record<string, string>>();
