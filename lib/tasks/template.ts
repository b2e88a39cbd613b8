/**
 * Question templates use `{name}` placeholders. Filling is strict: a placeholder without a value
 * is a programming error (the fields schema and the template disagree), so it throws.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`question template placeholder {${name}} has no value`);
    return value;
  });
}
