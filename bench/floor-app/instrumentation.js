/** No start-up work: present so that the build does not pick up the repository root's instrumentation.ts. */
export function register() {}
