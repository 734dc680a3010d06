/**
 * The users of a base (related-users/): its workspace's owner and the members of the
 * workspace's group, as user cards. They are also whom a row comment notifies.
 */
import type { Store, User } from '../store.js';
import type { Base } from '../model.js';
import { userCard } from '../account/users.js';

export function collaborators(store: Store, base: Base): User[] {
  const ids = store.db
    .prepare(
      `
    SELECT owner AS id FROM workspaces WHERE id = ?
    UNION SELECT m.user_id FROM workspaces w JOIN group_members m ON m.group_id = w.group_id WHERE w.id = ?`,
    )
    .pluck()
    .all(base.workspaceId, base.workspaceId) as string[];
  return ids.map((id) => store.userById(id)).filter((u): u is User => !!u && !!u.is_active);
}

export const collaboratorList = (store: Store, base: Base) => ({ user_list: collaborators(store, base).map(userCard) });
