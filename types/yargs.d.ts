// yargs 17.7 added usageConfiguration; @types/yargs 17.0.35 does not declare it yet.
import 'yargs';

declare module 'yargs' {
  interface Argv<T> {
    usageConfiguration(config: { 'hide-types'?: boolean }): Argv<T>;
  }
}
