/**
 * Minimal argument check against a tool's JSON Schema: `required` keys present, and for each
 * declared property its `type` (a name or a list of names) and `enum`. Returns the problems found,
 * an empty list when the arguments pass. Never throws; a schema it does not understand passes.
 */
export function validateToolArguments(schema: Record<string, unknown>, args: unknown): string[] {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return [`arguments must be an object, got ${typeName(args)}`];
  }
  const values = args as Record<string, unknown>;
  const problems: string[] = [];
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const key of required) {
    if (typeof key === "string" && values[key] === undefined) problems.push(`missing required "${key}"`);
  }
  const properties = isRecord(schema.properties) ? schema.properties : {};
  for (const [key, propertySchema] of Object.entries(properties)) {
    const value = values[key];
    if (value === undefined || !isRecord(propertySchema)) continue;
    const expected = expectedTypes(propertySchema.type);
    if (expected.length > 0 && !expected.some((type) => matchesType(value, type))) {
      problems.push(`"${key}" must be ${expected.join(" or ")}, got ${typeName(value)}`);
      continue;
    }
    if (Array.isArray(propertySchema.enum) && !propertySchema.enum.some((option) => option === value)) {
      const options = propertySchema.enum.map((option) => JSON.stringify(option)).join(", ");
      problems.push(`"${key}" must be one of ${options}, got ${JSON.stringify(value)}`);
    }
  }
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function expectedTypes(type: unknown): string[] {
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((entry): entry is string => typeof entry === "string");
  return [];
}

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
    default:
      return true;
  }
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}
