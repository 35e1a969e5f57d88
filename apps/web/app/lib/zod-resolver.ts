// Form validation with the contract's zod schemas. Zod compiles validators with `new Function` where it can;
// the pages' Content-Security-Policy has no 'unsafe-eval', so that probe would be refused and reported by the
// browser. Interpreted validation is plenty fast for forms.
import { zodResolver } from "@hookform/resolvers/zod";
import { config } from "zod";

config({ jitless: true });

export const resolverFor = zodResolver;
