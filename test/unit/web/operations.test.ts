// The browser pages' operations are strings the server sees only at run time: checked here
// against the schema, so a schema change that breaks a page fails the suite.
import { parse, validate } from 'graphql';
import { buildSchema } from '../../../src/graphql/schema';
import { EXAMPLE_VARIABLES, exampleTabs } from '../../../web/explorer/examples';
import { AROUND, BOARD, SUBMITTED, TOP } from '../../../web/live/operations';

const schema = buildSchema();

describe('the operations the browser pages send', () => {
  it.each([['BOARD', BOARD], ['TOP', TOP], ['AROUND', AROUND], ['SUBMITTED', SUBMITTED]])('spectator page: %s is valid', (_name, query) => {
    expect(validate(schema, parse(query))).toEqual([]);
  });

  it('explorer: every example is valid, with the variables it opens with', () => {
    const tabs = exampleTabs('{}');
    expect(tabs.length).toBeGreaterThan(0);
    for (const { query, variables } of tabs) {
      expect(validate(schema, parse(query))).toEqual([]);
      expect(variables).toBe(EXAMPLE_VARIABLES);
      expect(Object.keys(JSON.parse(variables))).toEqual(['board']);
    }
  });
});
