import { useCallback, useEffect, useRef, useState, type ChangeEvent, type InputHTMLAttributes, type ReactNode } from "react";
import { sniffImageType } from "#protocol/image-type";
import { useTranslation, type Translate } from "~/lib/i18n";
import { useShell } from "~/lib/use-shell";
import { ErrorList, formStyles as fs } from "./forms";
import * as s from "./image-upload.css";

interface ImageUploadProps {
  /** The field's name, also the preview's (`Preview: ID front`). */
  label: string;
  /** The file input's attributes (`getInputProps(field, { type: "file" })` and `accept`). */
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string };
  errors?: string[];
  /** The files accepted, under the prompt. */
  hint: ReactNode;
  /** The largest file; a larger one is refused here with `validation.id_image_size`, as the server does. */
  maxBytes: number;
}

interface Chosen {
  url: string;
  name: string;
  size: number;
}

/**
 * A size in the member's language: `67 B`, `12.3 KB`, `4,8 Mo`. Only the browser writes it (a
 * preview exists there only), so `Intl` cannot draw another number than the server did.
 */
function fileSize(bytes: number, t: Translate, langTag: string): string {
  const oneDecimal = (n: number) => new Intl.NumberFormat(langTag, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(n);
  if (bytes < 1024) return t("upload.size_b", { size: bytes });
  if (bytes < 1024 * 1024) return t("upload.size_kb", { size: oneDecimal(bytes / 1024) });
  return t("upload.size_mb", { size: oneDecimal(bytes / (1024 * 1024)) });
}

function UploadIcon({ className }: { className: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <circle cx="8.5" cy="9.5" r="1.5" />
      <path d="m21 16-5-5-9 9" />
    </svg>
  );
}

/**
 * An image file field drawn as a drop box (the KYC page's ID images). The real
 * `<input type="file">` covers the box, transparent, so it is clicked, focused, typed at and
 * dropped on as itself, and posts with its form without JavaScript (the box then says that an
 * image is chosen). With JavaScript the chosen file is read at once: one too large or whose
 * first bytes are no JPG, PNG, BMP or GIF is refused with the server's message and the input
 * emptied; an image shows as a thumbnail with its name and size.
 */
export function ImageUpload({ label, inputProps, errors, hint, maxBytes }: ImageUploadProps) {
  const { t } = useTranslation();
  const { langTag } = useShell();
  const { id } = inputProps;
  const inputRef = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const reading = useRef(0);

  // The preview's object URL lives as long as it is shown.
  useEffect(() => (chosen ? () => URL.revokeObjectURL(chosen.url) : undefined), [chosen]);

  const read = useCallback(
    async (input: HTMLInputElement) => {
      const turn = ++reading.current;
      const file = input.files?.[0];
      const refuse = (key: string) => {
        input.value = "";
        setChosen(null);
        setRefusal(key);
      };
      if (!file) {
        setChosen(null);
        setRefusal(null);
        return;
      }
      if (file.size === 0) return refuse("validation.id_image_required");
      if (file.size > maxBytes) return refuse("validation.id_image_size");
      let head: Uint8Array;
      try {
        head = new Uint8Array(await file.slice(0, 32).arrayBuffer());
      } catch {
        head = new Uint8Array();
      }
      if (turn !== reading.current) return;
      if (!sniffImageType(head)) return refuse("validation.id_image_type");
      setRefusal(null);
      setChosen({ url: URL.createObjectURL(file), name: file.name, size: file.size });
    },
    [maxBytes],
  );

  // A file chosen before the page's scripts ran is read once they do.
  useEffect(() => {
    if (inputRef.current?.files?.length) void read(inputRef.current);
  }, [read]);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    setDragging(false);
    void read(event.currentTarget);
  };

  const shownErrors = refusal ? [refusal] : errors;
  const errorId = shownErrors?.length ? `${id}-error` : undefined;
  const hintId = `${id}-hint`;
  const fileId = `${id}-file`;
  const describedBy = [errorId, chosen ? fileId : hintId].filter(Boolean).join(" ");

  return (
    <div className={fs.field}>
      <label htmlFor={id} className={fs.label}>
        {label}
      </label>
      <div className={s.zone} data-dragging={dragging || undefined}>
        <input
          {...inputProps}
          ref={inputRef}
          className={s.input}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={describedBy}
          onChange={onChange}
          onDragEnter={() => setDragging(true)}
          onDragLeave={() => setDragging(false)}
          onDrop={() => setDragging(false)}
        />
        {chosen ? (
          <div className={s.chosen}>
            <img className={s.thumb} src={chosen.url} alt={t("upload.preview", { label })} />
            <span className={s.details} id={fileId}>
              <span className={s.name}>{chosen.name}</span>
              <span className={s.size}>{fileSize(chosen.size, t, langTag)}</span>
            </span>
            <span className={s.change} aria-hidden="true">
              {t("upload.change")}
            </span>
          </div>
        ) : (
          <div className={s.empty}>
            <UploadIcon className={s.icon} />
            <span className={`${s.prompt} ${s.withPointer}`}>{t("upload.choose_or_drop")}</span>
            <span className={`${s.prompt} ${s.withTouch}`}>{t("upload.choose")}</span>
            <span className={s.chosenNoScript}>{t("upload.chosen")}</span>
            <span className={s.hint} id={hintId}>
              {hint}
            </span>
          </div>
        )}
      </div>
      <div aria-live="polite">
        <ErrorList id={errorId} errors={shownErrors} />
      </div>
    </div>
  );
}
