import type { SubmissionResult } from "@conform-to/dom";
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import type { FieldConstraint, FormCheck } from "./form-check";

/** A field as a page renders it (conform's field metadata, the part the pages read). */
export interface ExchangeField<Name extends string = string> extends FieldConstraint {
  name: Name;
  id: string;
  formId: string;
  errorId: string;
  /** Shown once the field was checked (on blur, on submit, or by the server's reply). */
  errors?: string[];
  /** The value the page rendered the field with: the reply's, else the default. */
  initialValue?: string;
  /** What the field holds now (read from the input as the member types). */
  value?: string;
}

export interface ExchangeFormState {
  id: string;
  errorId: string;
  /** The whole form's errors (an engine refusal, a check across fields). */
  errors?: string[];
  /** Always: the browser's own checks never stop a post; the schema does (decision 014). */
  noValidate: true;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  /** Sets a field as if typed (the "max" buttons). */
  update(change: { name: string; value: string }): void;
}

export interface ExchangeFormOptions<Name extends string> {
  id: string;
  /** The action's reply (`result`), shown until the member types again. */
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Partial<Record<Name, string>>;
  /** When a field is first checked in the browser; `onBlur` for the account forms. */
  shouldValidate?: "onSubmit" | "onBlur" | "onInput";
}

type Checker = (formData: FormData) => Record<string, string[]>;

const loading = new WeakMap<FormCheck, Promise<Checker>>();
const loaded = new WeakMap<FormCheck, Checker>();

/** The form's schema and zod's checks, fetched once per check; a failed fetch is tried again on next use. */
function loadChecker(check: FormCheck): Promise<Checker> {
  let pending = loading.get(check);
  if (!pending) {
    const sendCode = check.sendCode;
    pending = Promise.all([check.schema(), typeof sendCode === "function" ? sendCode() : sendCode, import("./check-form")]).then(
      ([schema, sendCodeSchema, { checkForm }]) => {
        const checker: Checker = (formData) => checkForm(formData, formData.get("intent") === "send-code" ? (sendCodeSchema ?? schema) : schema);
        loaded.set(check, checker);
        return checker;
      },
    );
    pending.catch(() => loading.delete(check));
    loading.set(check, pending);
  }
  return pending;
}

interface Shown {
  /** Every error of the last check, by field (`""`: the form's). */
  errors: Record<string, string[]>;
  /** Fields whose errors are shown. */
  validated: Record<string, boolean>;
  values: Record<string, string>;
}

function stringsOf(value: Record<string, unknown> | null | undefined): Record<string, string> {
  const strings: Record<string, string> = {};
  for (const [name, v] of Object.entries(value ?? {})) if (typeof v === "string") strings[name] = v;
  return strings;
}

/** What a page shows from the action's reply (or, before any, from its defaults). */
function shownFrom(reply: SubmissionResult<string[]> | null | undefined, defaultValue: Record<string, string | undefined> | undefined): Shown {
  const errors: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(reply?.error ?? {})) if (messages?.length) errors[name] = messages;
  const validated: Record<string, boolean> = { ...reply?.state?.validated };
  for (const name of [...Object.keys(errors), ...(reply?.fields ?? [])]) validated[name] = true;
  return { errors, validated, values: stringsOf(reply?.initialValue ?? defaultValue) };
}

type FieldElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function fieldOf(target: EventTarget | null, formId: string): FieldElement | null {
  const isField = target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
  return isField && target.name !== "" && target.form?.id === formId ? target : null;
}

/** Moves the focus to the first field the errors name (after a refused submit or reply). */
function focusFirstError(form: HTMLFormElement | null, errors: Record<string, string[]>) {
  for (const element of Array.from(form?.elements ?? [])) {
    if (fieldOf(element, form!.id) && errors[(element as FieldElement).name]) {
      (element as FieldElement).focus();
      return;
    }
  }
}

/**
 * Every conform form of the web tier (decision 037). The page renders from the form's check
 * alone: ids, the inputs' constraints, the action's reply (its values and errors) and the
 * defaults, so zod is not in the page's first load. The form's zod schema and conform's parser
 * are fetched when the member first focuses or touches the form; from then on fields are checked
 * in the browser on blur (or submit) and again on each input once their errors show, and a submit
 * the schema refuses is not sent (the focus goes to the first field at fault). A submit before
 * they arrived waits for them. Without JavaScript the server's checks answer, as they always do.
 */
export function useExchangeForm<Name extends string>(check: FormCheck<Name>, options: ExchangeFormOptions<Name>) {
  const { id, lastResult } = options;
  const [shown, setShown] = useState<Shown>(() => shownFrom(lastResult, options.defaultValue));
  // The values the inputs were rendered with (`defaultValue` of uncontrolled inputs): fixed when
  // the form appears, as conform does; a later reply changes what the form holds, not these.
  const [initial, setInitial] = useState(() => stringsOf(lastResult?.initialValue ?? options.defaultValue));
  // A new reply from the action shows its errors and values; another form (a new id) starts over.
  const [source, setSource] = useState({ id, lastResult });
  const replied = lastResult && lastResult !== source.lastResult;
  if (replied || id !== source.id || (!lastResult && source.lastResult)) {
    setSource({ id, lastResult });
    if (id !== source.id) {
      setInitial(stringsOf(options.defaultValue));
      setShown(shownFrom(undefined, options.defaultValue));
    } else if (replied) {
      setShown(shownFrom(lastResult, options.defaultValue));
    }
  }
  const focusAfterReply = useRef(false);
  if (replied && lastResult.status === "error") focusAfterReply.current = true;

  const latest = useRef({ check, options, shown });
  latest.current = { check, options, shown };
  const formElement = useCallback(() => document.forms.namedItem(id), [id]);

  /** Checks the whole form and shows the errors of `names` too (all: a submit). */
  const validate = useCallback(
    (names: string[]) => {
      const form = formElement();
      const checker = loaded.get(latest.current.check);
      if (!form) return;
      if (!checker) {
        // The first blur can come before the schema: checked as soon as it is here.
        void loadChecker(latest.current.check).then(
          () => validate(names),
          () => {},
        );
        return;
      }
      const errors = checker(new FormData(form));
      setShown((s) => ({ ...s, errors, validated: { ...s.validated, ...Object.fromEntries(names.map((n) => [n, true])) } }));
    },
    [formElement],
  );

  useEffect(() => {
    if (!focusAfterReply.current) return;
    focusAfterReply.current = false;
    focusFirstError(formElement(), shown.errors);
  });

  useEffect(() => {
    const inThisForm = (target: EventTarget | null) => target instanceof Element && target.closest("form")?.id === id;
    const warm = (event: Event) => {
      if (inThisForm(event.target)) void loadChecker(latest.current.check).catch(() => {});
    };
    // A field left for a button of the form (a press on "Create account"): its error would show
    // under it while the button is held, move the button down, and the release would miss it (no
    // click, no submit). Its check waits for the release; a submit checks everything anyway.
    // On a touch screen the focus moves after the finger lifts (with the emulated mouse events),
    // so the hold lasts until the press's click has been handled, or half a second.
    let pressing = false;
    let releaseTimer: ReturnType<typeof setTimeout> | undefined;
    const held = new Set<string>();
    const release = () => {
      clearTimeout(releaseTimer);
      pressing = false;
      const names = [...held];
      held.clear();
      if (names.length) validate(names);
    };
    const onPointerDown = (event: Event) => {
      warm(event);
      clearTimeout(releaseTimer);
      pressing = inThisForm(event.target) && (event.target as Element).closest("button") !== null;
    };
    const onPointerUp = () => {
      if (pressing) releaseTimer = setTimeout(release, 500);
    };
    const onClick = () => {
      if (pressing) setTimeout(release, 0);
    };
    const onInput = (event: Event) => {
      const field = fieldOf(event.target, id);
      if (!field) return;
      setShown((s) => ({ ...s, values: { ...s.values, [field.name]: field.value } }));
      if (latest.current.shown.validated[field.name] || latest.current.options.shouldValidate === "onInput") validate([field.name]);
    };
    const onBlur = (event: Event) => {
      const field = fieldOf(event.target, id);
      const { shouldValidate = "onBlur" } = latest.current.options;
      if (!field || shouldValidate !== "onBlur" || latest.current.shown.validated[field.name]) return;
      if (pressing) held.add(field.name);
      else validate([field.name]);
    };
    const onReset = (event: Event) => {
      if (event.target === formElement()) setShown(shownFrom(undefined, latest.current.options.defaultValue));
    };
    const listeners: [string, (event: Event) => void][] = [
      ["focusin", warm],
      ["pointerdown", onPointerDown],
      ["pointerup", onPointerUp],
      ["pointercancel", onPointerUp],
      ["click", onClick],
      ["input", onInput],
      ["focusout", onBlur],
      ["reset", onReset],
    ];
    for (const [type, listener] of listeners) document.addEventListener(type, listener);
    return () => {
      for (const [type, listener] of listeners) document.removeEventListener(type, listener);
      clearTimeout(releaseTimer);
    };
  }, [id, formElement, validate]);

  /**
   * A submit the schema refuses stays here. One made before the schema arrived waits for it, once:
   * a second press meanwhile (a double click on a slow connection) only changes which button
   * submits, so the form is posted at most once.
   */
  const unchecked = useRef(false);
  const waiting = useRef<{ submitter: HTMLButtonElement | HTMLInputElement | null } | null>(null);
  const onSubmit = useCallback((event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | HTMLInputElement | null;
    if (unchecked.current) {
      // The schema could not be fetched: the server checks this post, as without JavaScript.
      unchecked.current = false;
      return;
    }
    const checker = loaded.get(latest.current.check);
    if (!checker) {
      event.preventDefault();
      if (waiting.current) {
        waiting.current.submitter = submitter;
        return;
      }
      const wait = { submitter };
      waiting.current = wait;
      const again = () => {
        waiting.current = null;
        if (form.isConnected) form.requestSubmit(wait.submitter?.form === form ? wait.submitter : null);
      };
      void loadChecker(latest.current.check).then(again, () => {
        unchecked.current = true;
        again();
      });
      return;
    }
    const formData = new FormData(form);
    if (submitter?.name) formData.append(submitter.name, submitter.value);
    const errors = checker(formData);
    const names = ["", ...formData.keys(), ...Object.keys(errors)];
    setShown((s) => ({ ...s, errors, validated: { ...s.validated, ...Object.fromEntries(names.map((n) => [n, true])) } }));
    if (Object.keys(errors).length) {
      event.preventDefault();
      focusFirstError(form, errors);
    }
  }, []);

  const update = useCallback(
    ({ name, value }: { name: string; value: string }) => {
      const element = formElement()?.elements.namedItem(name);
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) element.value = value;
      setShown((s) => ({ ...s, values: { ...s.values, [name]: value } }));
      if (latest.current.shown.validated[name]) validate([name]);
    },
    [formElement, validate],
  );

  return useMemo(() => {
    const errorsOf = (name: string) => (shown.validated[name] ? shown.errors[name] : undefined);
    const fields = {} as Record<Name, ExchangeField<Name>>;
    for (const name of Object.keys(check.constraint) as Name[]) {
      const fieldId = `${id}-${name}`;
      const errors = errorsOf(name);
      fields[name] = {
        ...check.constraint[name],
        name,
        id: fieldId,
        formId: id,
        errorId: `${fieldId}-error`,
        errors,
        initialValue: initial[name],
        value: shown.values[name],
      };
    }
    const form: ExchangeFormState = {
      id,
      errorId: `${id}-error`,
      errors: errorsOf(""),
      noValidate: true,
      onSubmit,
      update,
    };
    return [form, fields] as const;
  }, [check, id, shown, initial, onSubmit, update]);
}
