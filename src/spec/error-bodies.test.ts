import { expect, test } from '@playwright/test';
import { ENDPOINTS } from './endpoints/index.js';
import { answeredByBaseComponent, baseComponentPath, errorMessageOf, errorMessageOfText } from './error-bodies.js';

test("an error body's message is read from each component's field, the first non-empty string", () => {
  expect(errorMessageOfText('{"error_msg":"Permission denied."}')).toBe('Permission denied.');
  expect(errorMessageOfText('{"error_message":"invalid token"}')).toBe('invalid token');
  expect(errorMessageOf({ detail: 'Invalid token' })).toBe('Invalid token');
  expect(errorMessageOf({ non_field_errors: ['Unable to login'] })).toBe('Unable to login');
  expect(errorMessageOf({ error_msg: '', error_message: 'x' })).toBe('x');
  expect(errorMessageOf({ error_msg: 7 })).toBeUndefined();
  expect(errorMessageOf(['error_msg'])).toBeUndefined();
  expect(errorMessageOfText('table_name invalid.')).toBeUndefined();
});

test("the base components' URL prefixes and the endpoint table's families agree (the error style of a path, routed or not)", () => {
  const wrong = ENDPOINTS.filter((e) => answeredByBaseComponent(e.family) !== baseComponentPath(e.path)).map(
    (e) => `${e.id} (${e.family}) ${e.path}`,
  );
  expect(wrong).toEqual([]);
});
