import type { FieldNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import { ALL_ENTRY_FIELDS, type EntryFields } from '../model';

const WITHOUT_SHARED_RANK: EntryFields = { sharedRank: false };

/**
 * By the field's node: a document is parsed once (documents.ts), so a node stands for its
 * selection. Only for a field of one node: the nodes merged into one field can depend on the
 * variables (@include on one of them).
 */
const fieldsByNode = new WeakMap<FieldNode, EntryFields>();

/**
 * The entry fields a read of entries by player must fetch for the field being resolved: the
 * shared rank only when a field named `sharedRank` is selected anywhere below it, through
 * fragments, whatever the type or the directives. Erring that way costs only a count in Redis;
 * the other way would leave a selected field without its value.
 */
export function entryFieldsOf(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): EntryFields {
  const node = info.fieldNodes.length === 1 ? info.fieldNodes[0] : undefined;
  let fields = node && fieldsByNode.get(node);
  if (!fields) {
    const visited = new Set<string>();
    const selects = (set: SelectionSetNode | undefined): boolean => set?.selections.some((selection) => {
      if (selection.kind === 'Field') return selection.name.value === 'sharedRank' || selects(selection.selectionSet);
      if (selection.kind === 'InlineFragment') return selects(selection.selectionSet);
      const name = selection.name.value;
      if (visited.has(name)) return false;
      visited.add(name);
      return selects(info.fragments[name]?.selectionSet);
    }) ?? false;
    fields = info.fieldNodes.some((field) => selects(field.selectionSet)) ? ALL_ENTRY_FIELDS : WITHOUT_SHARED_RANK;
    if (node) fieldsByNode.set(node, fields);
  }
  return fields;
}
