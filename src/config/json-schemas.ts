import { Ajv, type Options, type ValidateFunction } from 'ajv';

/**
 * Every schema compiled through `schemaCompiler` in this process, in order: a test checks each against the JSON
 * Schema meta-schema. They are constants of the code, so that check is the test's, not every start's: an Ajv instance
 * that checks the schemas it compiles first compiles the meta-schema itself, some 45 ms of a process's start on this
 * machine (docs/benchmarks.md, the all-dead recovery). Strict mode still refuses an unknown keyword or type as a
 * schema compiles.
 */
const compiled: object[] = [];

/** One Ajv instance with `options`, whose schemas are checked by the test rather than as they compile. */
export function schemaCompiler(options: Options): <T = unknown>(schema: object) => ValidateFunction<T> {
  const ajv = new Ajv({ ...options, validateSchema: false });
  return <T>(schema: object) => {
    compiled.push(schema);
    return ajv.compile<T>(schema);
  };
}

/** Every schema `schemaCompiler`'s instances compiled in this process. */
export function schemasCompiled(): readonly object[] {
  return compiled;
}

/**
 * The schemas checked as they are, never coerced or filled in: the config file's and the submit body's items. A
 * validator from it reports every problem and changes nothing in what it checks.
 */
export const strictValidator = schemaCompiler({ allErrors: true, allowUnionTypes: true });
