/**
 * ROBUST-4 and ROBUST-6 where the harness reads back what the target wrote: a Unicode edge
 * case taken is stored exactly (src/harness/robust/readback.ts); concurrent writers lose and
 * duplicate nothing (src/harness/robust/concurrency.ts).
 */
import { clause, test, ev } from '../src/harness/test.js';
import { APPENDERS, appendersCheck, CREATORS, creatorsCheck } from '../src/harness/robust/concurrency.js';
import { readBackCheck } from '../src/harness/robust/readback.js';

test(...clause('ROBUST-4', 'NUL, a lone surrogate and 10,000 characters as a cell, a table name and a column name: refused with a 4xx, or read back exactly', ev.documented('api-shapes §8')), async ({ target, state }) => {
  await readBackCheck(target, state);
});

test(...clause('ROBUST-6', `${APPENDERS} concurrent appenders on one table: the rows acknowledged are exactly the rows listed and counted by SQL, none twice`, ev.documented('OA62 base_operations#appendRows, createTable')), async ({ target, state }) => {
  await appendersCheck(target, state);
});

test(...clause('ROBUST-6', `${CREATORS} concurrent creates of one table name: exactly one wins, the others get a 4xx, one table of that name exists`, ev.documented('OA62 base_operations#appendRows, createTable')), async ({ target, state }) => {
  await creatorsCheck(target, state);
});
