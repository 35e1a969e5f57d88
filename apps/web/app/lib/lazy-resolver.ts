// A react-hook-form resolver whose validation code (zod and the schema) loads on first use, not with the page:
// the public forms stay light for their first paint.
import type { FieldValues, Resolver } from "react-hook-form";

export function lazyResolver<Values extends FieldValues, Output = Values>(
  load: () => Promise<Resolver<Values, unknown, Output>>,
): Resolver<Values, unknown, Output> {
  let loading: Promise<Resolver<Values, unknown, Output>> | undefined;
  return async (values, context, options) => {
    loading ??= load();
    return (await loading)(values, context, options);
  };
}
