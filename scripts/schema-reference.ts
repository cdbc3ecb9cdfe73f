// Writes docs/api/schema.md, the schema reference, from the descriptions in schema/*.graphql, so
// that the docs never list fields by hand. `npm run docs:schema` runs it;
// test/unit/docs/schemaReference.test.ts fails when the committed file is not what it writes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  buildSchema, type GraphQLArgument, type GraphQLEnumType, type GraphQLField, type GraphQLInputField,
  type GraphQLInputObjectType, type GraphQLInterfaceType, type GraphQLNamedType, type GraphQLObjectType,
  type GraphQLSchema, type GraphQLType, getNamedType, isEnumType, isInputObjectType, isInterfaceType,
  isIntrospectionType, isObjectType, isScalarType, isSpecifiedScalarType, isUnionType, type GraphQLUnionType,
} from 'graphql';

const ROOT = path.resolve(__dirname, '..');
export const SCHEMA_DIR = path.join(ROOT, 'schema');
export const REFERENCE_FILE = path.join(ROOT, 'docs', 'api', 'schema.md');

/** The SDL as the server reads it (src/graphql/schema.ts): every schema/*.graphql, in name order. */
export function loadSchema(dir = SCHEMA_DIR): GraphQLSchema {
  const files = fs.readdirSync(dir).filter((name) => name.endsWith('.graphql')).sort();
  return buildSchema(files.map((name) => fs.readFileSync(path.join(dir, name), 'utf8')).join('\n'));
}

type FieldLike = GraphQLField<unknown, unknown> | GraphQLInputField;

/** A type as written in SDL, linked to its section unless it is a built-in scalar. */
function typeRef(type: GraphQLType): string {
  const named = getNamedType(type);
  const text = `\`${type.toString()}\``;
  return isSpecifiedScalarType(named) ? text : `[${text}](#${named.name.toLowerCase()})`;
}

/** A description indented under its list item; blank lines stay blank, so paragraphs survive. */
function indented(description: string | null | undefined, indent: string): string[] {
  if (!description) return [];
  return description.split('\n').map((line) => (line.trim() ? `${indent}${line}` : ''));
}

function deprecation(reason: string | null | undefined, indent: string): string[] {
  return reason == null ? [] : ['', `${indent}**Deprecated:** ${reason}`];
}

function argumentLines(arg: GraphQLArgument): string[] {
  const byDefault = arg.defaultValue === undefined ? '' : ` = ${JSON.stringify(arg.defaultValue)}`;
  return [
    `  - \`${arg.name}\`: ${typeRef(arg.type)}${byDefault}`,
    '',
    ...indented(arg.description, '    '),
    ...deprecation(arg.deprecationReason, '    '),
  ];
}

function fieldLines(field: FieldLike): string[] {
  const args = 'args' in field ? field.args : [];
  const byDefault = 'defaultValue' in field && field.defaultValue !== undefined ? ` = ${JSON.stringify(field.defaultValue)}` : '';
  return [
    `- **\`${field.name}${args.length ? `(${args.map((arg) => `${arg.name}:`).join(', ')})` : ''}\`**: ${typeRef(field.type)}${byDefault}`,
    '',
    ...indented(field.description, '  '),
    ...deprecation(field.deprecationReason, '  '),
    ...args.flatMap((arg) => ['', ...argumentLines(arg)]),
    '',
  ];
}

function typeSection(schema: GraphQLSchema, type: GraphQLNamedType, level: string): string[] {
  const lines = [`${level} ${type.name}`, '', ...(type.description ? [type.description, ''] : [])];
  if (isObjectType(type) || isInterfaceType(type)) {
    const interfaces = (type as GraphQLObjectType | GraphQLInterfaceType).getInterfaces();
    if (interfaces.length) lines.push(`Implements ${interfaces.map((i) => typeRef(i)).join(', ')}.`, '');
    if (isInterfaceType(type)) {
      lines.push(`Implemented by ${schema.getPossibleTypes(type).map((t) => typeRef(t)).join(', ')}.`, '');
    }
    for (const field of Object.values(type.getFields())) lines.push(...fieldLines(field));
  } else if (isInputObjectType(type)) {
    for (const field of Object.values((type as GraphQLInputObjectType).getFields())) lines.push(...fieldLines(field));
  } else if (isEnumType(type)) {
    for (const value of (type as GraphQLEnumType).getValues()) {
      lines.push(`- **\`${value.name}\`**`, '', ...indented(value.description, '  '), ...deprecation(value.deprecationReason, '  '), '');
    }
  } else if (isUnionType(type)) {
    lines.push(`One of ${(type as GraphQLUnionType).getTypes().map((t) => typeRef(t)).join(', ')}.`, '');
  }
  return lines;
}

const GROUPS: Array<[string, (type: GraphQLNamedType) => boolean]> = [
  ['Objects', isObjectType],
  ['Inputs', isInputObjectType],
  ['Enums', isEnumType],
  ['Scalars', isScalarType],
  ['Interfaces', isInterfaceType],
  ['Unions', isUnionType],
];

/** The whole reference: the root types, then every other type by kind, each kind in name order. */
export function renderSchemaReference(schema: GraphQLSchema): string {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(
    (type): type is GraphQLObjectType => type != null,
  );
  const others = Object.values(schema.getTypeMap())
    .filter((type) => !isIntrospectionType(type) && !isSpecifiedScalarType(type) && !roots.includes(type as GraphQLObjectType))
    .sort((a, b) => a.name.localeCompare(b.name));
  const groups = GROUPS.map(([title, test]) => [title, others.filter(test)] as const).filter(([, types]) => types.length);

  const lines = [
    '# Schema reference',
    '',
    '<!-- Generated by `npm run docs:schema` (scripts/schema-reference.ts) from schema/*.graphql: edit the',
    '     descriptions there, not this file. test/unit/docs/schemaReference.test.ts fails when it is stale. -->',
    '',
    'Every type, field, argument, input field and enum value of the API, with the description the',
    'schema gives it (the same text the explorer shows). The [API guide](../api.md) shows them at work.',
    '',
    ...roots.map((type) => `- [${type.name}](#${type.name.toLowerCase()})`),
    ...groups.map(([title, types]) => `- ${title}: ${types.map((t) => `[${t.name}](#${t.name.toLowerCase()})`).join(', ')}`),
    '',
    ...roots.flatMap((type) => typeSection(schema, type, '##')),
    ...groups.flatMap(([title, types]) => [`## ${title}`, '', ...types.flatMap((type) => typeSection(schema, type, '###'))]),
  ];
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

if (require.main === module) {
  fs.mkdirSync(path.dirname(REFERENCE_FILE), { recursive: true });
  fs.writeFileSync(REFERENCE_FILE, renderSchemaReference(loadSchema()));
  console.log(`wrote ${path.relative(ROOT, REFERENCE_FILE)}`);
}
