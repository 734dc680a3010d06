/** What the account routes share besides the context: the quota and webhook services, and operation logging. */
import type { ServerContext } from '../../context.js';
import { recordOperation, type OperationGroup } from '../../store/account/logs.js';
import type { QuotaService } from '../../store/account/quota.js';
import type { User } from '../../store/store.js';
import type { WebhookDelivery } from '../../webhooks/delivery.js';

export interface AccountServices {
  /** Absent with `unlimited` (capacity runs): no counting at all. */
  quota: QuotaService | undefined;
  webhooks: WebhookDelivery;
}

/** Record an operation in the team's log (List Team Operations shows it). */
export function logOperation(
  ctx: ServerContext,
  actor: User,
  orgId: number | null,
  group: OperationGroup,
  operation: string,
  detail: Record<string, unknown>,
): void {
  if (orgId === null) return;
  recordOperation(ctx.db, { orgId, actor, operation, group, detail, at: ctx.now() });
}
