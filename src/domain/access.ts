import { forbidden } from '../errors';

/** Roles nest: an admin may do all a writer may, and a writer all a reader may. */
export type Role = 'reader' | 'writer' | 'admin';
export const ROLES: readonly Role[] = ['reader', 'writer', 'admin'];

/** Who is asking: the API key a request presented, or an anonymous reader. */
export interface Principal {
  role: Role;
  /** Boards this key may change are those whose id starts with this; null: any board. */
  boardPrefix: string | null;
  /** A name for the key that is safe to log and to count by (never the key); null when anonymous. */
  keyId: string | null;
}

export const ANONYMOUS_READER: Principal = { role: 'reader', boardPrefix: null, keyId: null };

export const hasRole = (principal: Principal, role: Role) => ROLES.indexOf(principal.role) >= ROLES.indexOf(role);

export function checkRole(principal: Principal, role: Role, operation: string): void {
  if (!hasRole(principal, role)) {
    throw forbidden(`${operation} needs a ${role} key`, { requiredRole: role });
  }
}

/** `index` names the batch item, as validation errors do. */
export function checkBoardAccess(principal: Principal, boardId: string, index?: number): void {
  const prefix = principal.boardPrefix;
  if (prefix !== null && !boardId.startsWith(prefix)) {
    throw forbidden(`this key may only change boards whose id starts with "${prefix}"`, {
      leaderboardId: boardId,
      ...(index === undefined ? {} : { index }),
    });
  }
}

/**
 * What every board shows (player profiles) belongs to no board, so a key limited to some boards
 * may not change it; an admin key may, whatever its prefix.
 */
export function checkSharedAccess(principal: Principal, what: string, operation: string): void {
  if (principal.boardPrefix !== null && !hasRole(principal, 'admin')) {
    throw forbidden(
      `${operation} changes ${what}, which are shared by every board: only writer keys without a board prefix, and admin keys, may change them`,
      { boardPrefix: principal.boardPrefix },
    );
  }
}
