// yargs 17.7 added usageConfiguration, and getOptions has long been public; @types/yargs
// 17.0.35 declares neither.
import 'yargs';

declare module 'yargs' {
  interface Argv<T> {
    usageConfiguration(config: { 'hide-types'?: boolean }): Argv<T>;
    getOptions(): { key: Record<string, unknown> };
  }
}
