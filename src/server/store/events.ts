/** Row changes as the webhook payload describes them (api-shapes §6); the webhook service listens. */
export interface CellChange {
  column_key: string;
  column_name: string;
  column_type: string;
  column_data: unknown;
  value: unknown;
  old_value?: unknown;
}

export interface RowChange {
  base_uuid: string;
  table_id: string;
  table_name: string;
  row_id: string;
  row_name: string;
  op_type: 'insert_row' | 'modify_row' | 'delete_row';
  op_user: string;
  op_time: number;
  row_data: CellChange[];
}

/** Which write path made the changes: the row operations, or a SQL statement (whose changed rows cost a second read). */
export type ChangeSource = 'rows' | 'sql';

export interface RowEvents {
  /** Whether anyone listens to this base (so writes skip building events otherwise). */
  wants(baseUuid: string, via?: ChangeSource): boolean;
  /** Called after the change is committed; must not block. */
  emit(changes: RowChange[], via?: ChangeSource): void;
}

export const NO_EVENTS: RowEvents = { wants: () => false, emit: () => undefined };
