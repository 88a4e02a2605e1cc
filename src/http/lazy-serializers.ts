import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type RouteDefinition = Parameters<ReturnType<SerializerFactory>>[0];

/**
 * Fastify's own response serializers (fast-json-stringify), each built on the first response it serializes rather
 * than when the server gets ready. Building every route's serializers took about 210 ms of an API process's start of
 * 1.1 s, on the same cores as the workers that a restart after a crash most needs (docs/benchmarks.md, "Recovery:
 * kill -9 of the API and both workers"); a route pays its own few milliseconds on its first answer instead. The
 * serializers are the same functions: what a response looks like does not change, only when it is built.
 */
export function lazySerializers(): SerializerFactory {
  const eager = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = eager(externalSchemas, options);
    return (route: RouteDefinition) => {
      let serialize: ((doc: unknown) => string) | null = null;
      return (doc: unknown) => {
        serialize ??= compile(route);
        return serialize(doc);
      };
    };
  };
}
