/**
 * SHAPE-8 recipes of a base's structure on the gateway: metadata, collaborators, tables,
 * views, columns, select options and cascades (base_operations.yaml). A table, view or
 * column a recipe renames or deletes is one it made itself; views take `table_name` in the
 * query string, as the OpenAPI has it.
 */
import { existingTable, scratchTable } from '../tables.js';
import { gw, jsonOf, obj, tag } from './calls.js';
import { need, type Kit, type Recipes } from './kit.js';
import { setupOk } from '../outcome.js';
import { PICK, SUB, type Tables } from './world.js';

/** A view of its own on table A (a view lives in the scratch table and goes with it). */
async function ownView(k: Kit, t: Tables): Promise<string> {
  const name = `${k.state.tablePrefix}view_${tag()}`;
  setupOk(
    await k.target.gw(0, 'POST', 'views/', { query: { table_name: t.a.name }, json: { name, type: 'table' } }),
    'create a view',
  );
  return name;
}

/** A text column of its own on table A. */
async function ownColumn(k: Kit, t: Tables): Promise<string> {
  const name = `c_${tag()}`;
  setupOk(
    await k.target.gw(0, 'POST', 'columns/', {
      json: { table_name: t.a.name, column_name: name, column_type: 'text' },
    }),
    'add a column',
  );
  return name;
}

/** A single-select column of its own with one option, and that option's id as the answer gives it. */
async function ownSelect(k: Kit, t: Tables): Promise<{ column: string; option: string; id: string }> {
  const column = `s_${tag()}`;
  const option = 'o1';
  const r = await k.target.gw(0, 'POST', 'columns/', {
    json: {
      table_name: t.a.name,
      column_name: column,
      column_type: 'single-select',
      column_data: { options: [{ name: option, color: '#FFFCB5', textColor: '#202428', id: '200001' }] },
    },
  });
  setupOk(r, 'add a single-select column');
  const options = (obj(obj(r.json()).data).options ?? []) as { name?: string; id?: unknown }[];
  const id = need(
    options.find((o) => o.name === option)?.id,
    `the new column's answer lists no option ${option}: ${r.text.slice(0, 200)}`,
  );
  return { column, option, id: String(id) };
}

const table = (k: Kit) => k.world.tables(k.target);

export const STRUCTURE_RECIPES: Recipes = {
  getMetadata: {
    async run(k) {
      await k.main(gw(k.target, 'GET', 'metadata/'));
    },
  },
  listCollaborators: {
    async run(k) {
      await k.main(gw(k.target, 'GET', 'related-users/'));
    },
  },
  createTable: {
    async run(k) {
      const name = `${k.state.tablePrefix}ans_new_${tag()}`;
      k.later(() => existingTable(k.target, name).drop());
      await k.main(
        gw(k.target, 'POST', 'tables/', {
          json: { table_name: name, columns: [{ column_name: 'Name', column_type: 'text' }] },
        }),
      );
    },
  },
  renameTable: {
    async run(k) {
      const t = await scratchTable(k.target, 'ans_ren');
      const renamed = `${t.name}_renamed`;
      k.later(async () => {
        await existingTable(k.target, renamed).drop();
        await t.drop();
      });
      await k.main(gw(k.target, 'PUT', 'tables/', { json: { table_name: t.name, new_table_name: renamed } }));
    },
  },
  deleteTable: {
    async run(k) {
      const t = await scratchTable(k.target, 'ans_del');
      k.later(() => t.drop());
      await k.main(gw(k.target, 'DELETE', 'tables/', { json: { table_name: t.name } }));
    },
  },
  duplicateTable: {
    async run(k) {
      const t = await scratchTable(k.target, 'ans_dup');
      k.later(() => t.drop());
      const r = await k.main(
        gw(k.target, 'POST', 'tables/duplicate-table/', { json: { table_name: t.name, is_duplicate_records: true } }),
      );
      const copy = obj(jsonOf(r)).name;
      // The copy is named by the target: the answer says which table this call made.
      if (typeof copy === 'string' && copy !== t.name) k.later(() => existingTable(k.target, copy).drop());
    },
  },
  listViews: {
    async run(k) {
      const t = await table(k);
      await k.main(gw(k.target, 'GET', 'views/', { query: { table_name: t.a.name } }));
    },
  },
  createView: {
    async run(k) {
      const t = await table(k);
      await k.main(
        gw(k.target, 'POST', 'views/', {
          query: { table_name: t.a.name },
          json: { name: `${k.state.tablePrefix}view_${tag()}`, type: 'table' },
        }),
      );
    },
  },
  getView: {
    async run(k) {
      const t = await table(k);
      const view = await k.world.view(k.target);
      await k.main(gw(k.target, 'GET', `views/${encodeURIComponent(view)}/`, { query: { table_name: t.a.name } }));
    },
  },
  updateView: {
    async run(k) {
      const t = await table(k);
      const view = await ownView(k, t);
      await k.main(
        gw(k.target, 'PUT', `views/${encodeURIComponent(view)}/`, {
          query: { table_name: t.a.name },
          json: { filter_conjunction: 'And', hidden_columns: [] },
        }),
      );
    },
  },
  deleteView: {
    async run(k) {
      const t = await table(k);
      const view = await ownView(k, t);
      await k.main(gw(k.target, 'DELETE', `views/${encodeURIComponent(view)}/`, { query: { table_name: t.a.name } }));
    },
  },
  listColumns: {
    async run(k) {
      const t = await table(k);
      await k.main(gw(k.target, 'GET', 'columns/', { query: { table_name: t.a.name } }));
    },
  },
  appendColumn: {
    async run(k) {
      const t = await table(k);
      await k.main(
        gw(k.target, 'POST', 'columns/', {
          json: { table_name: t.a.name, column_name: `c_${tag()}`, column_type: 'text' },
        }),
      );
    },
  },
  updateColumn: {
    async run(k) {
      const t = await table(k);
      const column = await ownColumn(k, t);
      await k.main(
        gw(k.target, 'PUT', 'columns/', {
          json: { op_type: 'resize_column', table_name: t.a.name, column, new_column_width: 160 },
        }),
      );
    },
  },
  deleteColumn: {
    async run(k) {
      const t = await table(k);
      const column = await ownColumn(k, t);
      await k.main(gw(k.target, 'DELETE', 'columns/', { json: { table_name: t.a.name, column } }));
    },
  },
  appendColumns: {
    async run(k) {
      const t = await table(k);
      await k.main(
        gw(k.target, 'POST', 'batch-append-columns/', {
          json: {
            table_name: t.a.name,
            columns: [
              { column_name: `c_${tag()}`, column_type: 'text' },
              { column_name: `n_${tag()}`, column_type: 'number' },
            ],
          },
        }),
      );
    },
  },
  addSelectOption: {
    async run(k) {
      const t = await table(k);
      const s = await ownSelect(k, t);
      await k.main(
        gw(k.target, 'POST', 'column-options/', {
          json: {
            table_name: t.a.name,
            column: s.column,
            options: [{ name: 'o2', color: '#FF8000', textColor: '#1DDD1D' }],
          },
        }),
      );
    },
  },
  updateSelectOption: {
    async run(k) {
      const t = await table(k);
      const s = await ownSelect(k, t);
      await k.main(
        gw(k.target, 'PUT', 'column-options/', {
          json: {
            table_name: t.a.name,
            column: s.column,
            options: [{ id: s.id, name: s.option, color: '#4ECCCB', textColor: '#FFFFFF' }],
          },
        }),
      );
    },
  },
  deleteSelectOption: {
    async run(k) {
      const t = await table(k);
      const s = await ownSelect(k, t);
      await k.main(
        gw(k.target, 'DELETE', 'column-options/', {
          json: { table_name: t.a.name, column: s.column, option_names: [s.option] },
        }),
      );
    },
  },
  updateColumnCascade: {
    async run(k) {
      const t = await table(k);
      const [p1, p2] = PICK.options;
      const [s1, s2] = SUB.options;
      await k.main(
        gw(k.target, 'POST', 'column-cascade-settings/', {
          json: {
            table_name: t.a.name,
            parent_column: PICK.column,
            child_column: SUB.column,
            cascade_settings: { [p1]: [s1], [p2]: [s2] },
          },
        }),
      );
    },
  },
};
