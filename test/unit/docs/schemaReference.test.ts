import { readFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import { loadSchema, REFERENCE_FILE, renderSchemaReference } from '../../../scripts/schema-reference';

// CI's staleness check: the committed reference must be what `npm run docs:schema` writes now.
describe('docs/api/schema.md', () => {
  it('is what npm run docs:schema generates from schema/*.graphql', () => {
    const committed = readFileSync(REFERENCE_FILE, 'utf8');
    // A failure here means a description changed without `npm run docs:schema` being run.
    expect(committed).toBe(renderSchemaReference(loadSchema()));
  });

  it('lists root fields first, each with its arguments, type, description and deprecation', () => {
    const reference = renderSchemaReference(
      buildSchema(`
        "Reads."
        type Query {
          "One thing."
          thing("Its id." id: ID!, "How many." first: Int = 10): Thing
        }
        "Something."
        type Thing {
          "Its name."
          name: String @deprecated(reason: "Use label.")
          "Its label."
          label: String!
        }
        "A kind."
        enum Kind { "First." A  "Second." B @deprecated(reason: "Gone.") }
      `),
    );
    expect(reference.indexOf('## Query')).toBeLessThan(reference.indexOf('## Objects'));
    expect(reference.indexOf('## Objects')).toBeLessThan(reference.indexOf('## Enums'));
    expect(reference).toContain('- **`thing(id:, first:)`**: [`Thing`](#thing)\n\n  One thing.');
    expect(reference).toContain('  - `first`: `Int` = 10\n\n    How many.');
    expect(reference).toContain('- **`name`**: `String`\n\n  Its name.\n\n  **Deprecated:** Use label.');
    expect(reference).toContain('- **`B`**\n\n  Second.\n\n  **Deprecated:** Gone.');
  });
});
