import { cancel, confirm, intro, isCancel, log, note, outro, password, select, spinner, text } from "@clack/prompts";

/**
 * The prompts of `weir init` and `weir auth login`, over @clack/prompts. Each returns undefined when
 * the person cancels (Ctrl-C, Esc); the command then leaves without writing anything.
 */
export interface SetupPrompts {
  intro(title: string): void;
  outro(message: string): void;
  cancelled(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  note(message: string, title: string): void;
  choose<T extends string>(message: string, options: { value: T; label: string; hint?: string }[], initial?: T): Promise<T | undefined>;
  ask(message: string, o?: { initial?: string; placeholder?: string; validate?: (v: string) => string | undefined }): Promise<string | undefined>;
  secret(message: string): Promise<string | undefined>;
  yesNo(message: string, initial: boolean): Promise<boolean | undefined>;
  /** Runs `f` under a spinner with `message`; the spinner ends with what `f` says. */
  busy<T>(message: string, f: () => Promise<T>, done: (r: T) => string): Promise<T>;
}

function orUndefined<T>(v: T | symbol): Exclude<T, symbol> | undefined {
  return isCancel(v) || typeof v === "symbol" ? undefined : (v as Exclude<T, symbol>);
}

export const clackPrompts: SetupPrompts = {
  intro: (t) => intro(t),
  outro: (m) => outro(m),
  cancelled: (m) => cancel(m),
  info: (m) => log.info(m),
  warn: (m) => log.warn(m),
  note: (m, t) => note(m, t),
  async choose(message, options, initial) {
    // clack's option type is conditional on the value type; the cast keeps the interface generic.
    return orUndefined(await select({ message, options: options as never, ...(initial !== undefined ? { initialValue: initial as never } : {}) })) as never;
  },
  async ask(message, o = {}) {
    return orUndefined(
      await text({
        message,
        ...(o.initial !== undefined ? { initialValue: o.initial } : {}),
        ...(o.placeholder ? { placeholder: o.placeholder } : {}),
        ...(o.validate ? { validate: (v) => o.validate!(v ?? "") } : {}),
      }),
    );
  },
  async secret(message) {
    return orUndefined(await password({ message, mask: "•" }));
  },
  async yesNo(message, initial) {
    return orUndefined(await confirm({ message, initialValue: initial }));
  },
  async busy(message, f, done) {
    const s = spinner();
    s.start(message);
    try {
      const r = await f();
      s.stop(done(r));
      return r;
    } catch (e) {
      s.stop(`${message}: failed`);
      throw e;
    }
  },
};
