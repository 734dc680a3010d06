/**
 * ROBUST-4 and ROBUST-6 where the harness reads back what the target wrote: a Unicode edge
 * case taken is stored exactly (src/harness/robust/readback.ts); concurrent writers lose and
 * duplicate nothing (src/harness/robust/concurrency.ts).
 */
import { clause, test, ev } from '../src/harness/test.js';
import { APPENDERS, appendersCheck, CREATORS, creatorsCheck } from '../src/harness/robust/concurrency.js';
import { readBackCheck } from '../src/harness/robust/readback.js';

test(
  ...clause(
    'ROBUST-4',
    'NUL, a lone surrogate and 10,000 characters as a cell, a table name and a column name: refused with a 4xx, or read back exactly',
    ev.owed(
      "a value the server took is stored as sent: a changed value is a corrupt write, which no correct server makes (RFC 9110 §9.3.3, §9.3.4: the request's content is what is stored)",
    ),
  ),
  async ({ target, state }) => {
    await readBackCheck(target, state);
  },
);

test(
  ...clause(
    'ROBUST-6',
    `${APPENDERS} concurrent appenders on one table: the rows acknowledged are exactly the rows listed and counted by SQL, none twice`,
    ev.owed(
      'an acknowledged write is kept, once: no correct server loses or duplicates what it acknowledged (RFC 9110 §9.2.1, §15.3)',
    ),
  ),
  async ({ target, state }) => {
    await appendersCheck(target, state);
  },
);

test(
  ...clause(
    'ROBUST-6',
    `${CREATORS} concurrent creates of one table name: exactly one wins, the others get a 4xx, one table of that name exists`,
    ev.owed(
      'an acknowledged write is kept, once: no correct server loses or duplicates what it acknowledged (RFC 9110 §9.2.1, §15.3)',
    ),
  ),
  async ({ target, state }) => {
    await creatorsCheck(target, state);
  },
);
