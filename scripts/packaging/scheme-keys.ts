/**
 * Which keys of a config are unknown to a JSON schema (electron-builder's scheme.json): walks
 * $ref, anyOf/oneOf, properties, additionalProperties and array items. A key is known when at
 * least one branch of the schema that fits the value knows it.
 */
type Schema = {
  $ref?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema | Schema[];
  definitions?: Record<string, Schema>;
};

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' ? 'number' : typeof value;
}

function fits(schema: Schema, value: unknown): boolean {
  if (!schema.type) return true;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const t = typeOf(value);
  return types.includes(t) || (t === 'number' && types.includes('integer'));
}

export function unknownKeys(root: Schema, value: unknown, path = '', schema: Schema = root): string[] {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/definitions/', '');
    const target = root.definitions?.[name];
    if (!target) return [`${path || '(root)'}: schema has no definition ${name}`];
    return unknownKeys(root, value, path, target);
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const results = branches.filter((b) => fits(b.$ref ? (root.definitions?.[b.$ref.replace('#/definitions/', '')] ?? b) : b, value)).map((b) => unknownKeys(root, value, path, b));
    if (results.length === 0) return [`${path || '(root)'}: no schema branch accepts a ${typeOf(value)}`];
    return results.find((r) => r.length === 0) ?? results[0]!;
  }
  if (Array.isArray(value)) {
    const items = Array.isArray(schema.items) ? undefined : schema.items;
    return items ? value.flatMap((v, i) => unknownKeys(root, v, `${path}[${i}]`, items)) : [];
  }
  if (typeOf(value) !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => {
    const at = path ? `${path}.${key}` : key;
    const known = schema.properties?.[key];
    if (known) return unknownKeys(root, v, at, known);
    if (typeof schema.additionalProperties === 'object') return unknownKeys(root, v, at, schema.additionalProperties);
    return schema.additionalProperties === false || schema.properties ? [at] : [];
  });
}
