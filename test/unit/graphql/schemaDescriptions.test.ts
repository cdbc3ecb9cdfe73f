import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  type GraphQLArgument, Kind, parse, type ScalarTypeDefinitionNode, type GraphQLField, type GraphQLInputField, isEnumType, isInputObjectType, isInterfaceType,
  isIntrospectionType, isObjectType, isSpecifiedScalarType,
} from 'graphql';
import { buildSchema } from '../../../src/graphql/schema';

const schema = buildSchema();

/** Every place of the schema a client tool shows documentation for, by its coordinate (Type.field(arg:)). */
function undescribed(): string[] {
  const missing: string[] = [];
  const check = (coordinate: string, description: string | null | undefined) => {
    if (!description?.trim()) missing.push(coordinate);
  };
  const checkArgs = (coordinate: string, args: readonly GraphQLArgument[]) =>
    args.forEach((arg) => check(`${coordinate}(${arg.name}:)`, arg.description));
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type) || isSpecifiedScalarType(type)) continue;
    check(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
        check(`${type.name}.${field.name}`, field.description);
        checkArgs(`${type.name}.${field.name}`, field.args);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields()) as GraphQLInputField[]) check(`${type.name}.${field.name}`, field.description);
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) check(`${type.name}.${value.name}`, value.description);
    }
  }
  return missing;
}

describe('the schema', () => {
  it('describes every type, field, argument, input field and enum value', () => {
    expect(undescribed()).toEqual([]);
  });

  it('points DateTime at RFC 3339, as the schema files say', () => {
    const files = parse(readFileSync(path.join(__dirname, '../../../schema/common.graphql'), 'utf8'));
    const written = files.definitions.find((node): node is ScalarTypeDefinitionNode => node.kind === Kind.SCALAR_TYPE_DEFINITION && node.name.value === 'DateTime');
    expect(schema.getType('DateTime')).toMatchObject({
      specifiedByURL: 'https://datatracker.ietf.org/doc/html/rfc3339',
      description: written?.description?.value,
    });
  });
});
