// Job settings forms built from the server's JSON Schema of each job's request (`GET
// /api/jobs`, fetched once): the only place the page learns a job's options — their labels
// (`title`, else the doc comment's first sentence), help (the doc comment), defaults, ranges,
// choices (`oneOf` of `const`s or `enum`, through `$ref`), suggested values (`x-choices`),
// when they apply (`x-when`), which a form leaves out (`x-hidden`) and which are expert knobs
// shown behind one "Advanced" disclosure (`x-advanced`). A page lays out a
// form's element and reads back `request()`: only the values the user changed from the
// schema's defaults, so requests stay minimal and the job's own defaults apply to the rest.

import { api } from './api.js';
import { el } from './ui.js';

let jobsPromise = null;

/** Every job the server runs, as a Map name -> {name, title, schema}; fetched once. */
export function loadJobs() {
  if (!jobsPromise) {
    jobsPromise = api('jobs').then((answer) => new Map(answer.jobs.map((job) => [job.name, job])));
    jobsPromise.catch(() => { jobsPromise = null; }); // a failed fetch is tried again next time
  }
  return jobsPromise;
}

/** One job's {name, title, schema}. */
export async function jobInfo(name) {
  const info = (await loadJobs()).get(name);
  if (!info) throw new Error(`The server runs no job called ${name}.`);
  return info;
}

/** A doc comment as one line of plain text (no Markdown code marks or link brackets). */
export function plainText(text) {
  return String(text ?? '')
    .replace(/\[`([^`\]]*)`\]/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** The first sentence of a plain text, without its closing full stop. */
export function firstSentence(text) {
  return text.split(/\.\s+(?=[A-Z])/)[0].replace(/\.$/, '').trim();
}

/** What a description says the default is ("… (default 20000)" -> "20000"), if short. */
function defaultHint(help) {
  const hint = /\bdefault:?\s+([^;:)\]]+)/i.exec(help)?.[1]?.trim();
  return hint && hint.length <= 24 ? hint : null;
}

// ---------------------------------------------------------------------------------------------
// Reading the schema

function pointer(schema, ref) {
  if (!ref.startsWith('#')) return {};
  return ref.slice(1).split('/').filter(Boolean)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, part) => node?.[part], schema) ?? {};
}

/** A schema node with its `$ref`s followed; the referring node's own keys win. */
function resolve(schema, node) {
  let resolved = node ?? {};
  for (let depth = 0; resolved.$ref && depth < 16; depth++) {
    const { $ref, ...own } = resolved;
    resolved = { ...pointer(schema, $ref), ...own };
  }
  return resolved;
}

const isNullType = (node) => node?.type === 'null' || (node && 'const' in node && node.const === null);

/** The named values of an enum node: [{value, label, help}], or null when it is not one. */
function choicesOf(schema, node) {
  if (Array.isArray(node.enum)) {
    return node.enum.filter((value) => value !== null).map((value) => ({ value, label: String(value), help: '' }));
  }
  const alternatives = (node.oneOf ?? node.anyOf)?.map((alternative) => resolve(schema, alternative));
  if (!alternatives || alternatives.length === 0) return null;
  const named = alternatives.filter((alternative) => !isNullType(alternative));
  if (!named.every((alternative) => 'const' in alternative || Array.isArray(alternative.enum))) return null;
  return named.flatMap((alternative) => {
    const help = plainText(alternative.description);
    if (!('const' in alternative)) return choicesOf(schema, alternative);
    const label = alternative.title ?? (help ? firstSentence(help) : String(alternative.const));
    return [{ value: alternative.const, label, help }];
  });
}

/** The value type of a (resolved) node: its kind, choices and bounds. */
function valueType(schema, raw) {
  let node = resolve(schema, raw);
  let nullable = false;
  // `anyOf: [X, {type: null}]` (an optional enum, say) is X allowing null.
  const alternatives = node.anyOf ?? node.oneOf;
  if (Array.isArray(alternatives) && alternatives.some(isNullType)) {
    const rest = alternatives.filter((alternative) => !isNullType(alternative));
    if (rest.length === 1) {
      const { anyOf, oneOf, ...own } = node;
      node = { ...resolve(schema, rest[0]), ...own };
      nullable = true;
    }
  }
  let types = node.type === undefined ? [] : [].concat(node.type);
  if (types.includes('null')) nullable = true;
  types = types.filter((type) => type !== 'null');
  const type = { node, nullable, min: node.minimum, max: node.maximum, choices: choicesOf(schema, node) };
  if (type.choices) return { ...type, kind: 'choice' };
  if (types[0] === 'boolean') return { ...type, kind: 'boolean' };
  if (types[0] === 'integer' || types[0] === 'number') return { ...type, kind: types[0] };
  if (types[0] === 'string') return { ...type, kind: 'text' };
  if (types[0] === 'array') {
    const items = node.prefixItems ?? (node.items ? [node.items] : []);
    const item = items.length > 0 ? valueType(schema, items[0]) : { kind: 'text' };
    if (!['choice', 'integer', 'number', 'text'].includes(item.kind)) return { ...type, kind: null };
    return { ...type, kind: 'list', item, length: node.prefixItems ? node.prefixItems.length : null };
  }
  return { ...type, kind: null };
}

/**
 * One property of a job's schema as a form field: {name, label, help, kind ('choice',
 * 'boolean', 'integer', 'number', 'text' or 'list'), nullable, default, choices, suggestions,
 * min, max, when, hidden, item (a list's values), length (a tuple's)}; kind null when no form
 * control fits (an object, say).
 */
export function describeField(info, name) {
  const { schema } = info;
  const raw = schema.properties?.[name];
  if (!raw) throw new Error(`${info.name} has no option ${name}`);
  const type = valueType(schema, raw);
  const help = plainText(raw.description ?? type.node.description);
  const title = raw.title ?? (raw.$ref ? undefined : type.node.title);
  const suggestions = Array.isArray(raw['x-choices'])
    ? raw['x-choices'].map((choice) => {
      const choiceHelp = plainText(choice.description);
      return { value: choice.const, label: choice.title ?? (choiceHelp ? firstSentence(choiceHelp) : String(choice.const)), help: choiceHelp };
    })
    : null;
  return {
    name,
    label: title ?? (help ? firstSentence(help) : name.replace(/_/g, ' ')),
    help,
    kind: type.kind,
    nullable: type.nullable,
    default: 'default' in raw ? raw.default : (type.nullable ? null : undefined),
    choices: type.choices,
    suggestions,
    min: type.min,
    max: type.max,
    item: type.item ?? null,
    length: type.length ?? null,
    when: raw['x-when'] ?? null,
    hidden: raw['x-hidden'] === true,
    advanced: raw['x-advanced'] === true,
  };
}

/** Every property of a job's schema as a form field, in the schema's order. */
export function describeFields(info) {
  return Object.keys(info.schema.properties ?? {}).map((name) => describeField(info, name));
}

/** The choices of a field, or of its list's values: [{value, label, help}]. */
export function fieldChoices(info, name) {
  const field = describeField(info, name);
  return field.choices ?? field.item?.choices ?? field.suggestions ?? [];
}

// ---------------------------------------------------------------------------------------------
// Values

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Text for an input from a value (a list joined by commas). */
function textOf(value) {
  if (value === null || value === undefined) return '';
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** A number from an input's text, or an error naming the field. */
function parseNumber(field, text, integer) {
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) throw new Error(`${field.label}: "${text}" is not a number.`);
  if (integer && !Number.isInteger(value)) throw new Error(`${field.label}: give a whole number, not ${text}.`);
  return value;
}

/** Whether `value` meets one `x-when` condition: one of a list, or within bounds. */
function meets(value, condition) {
  if (Array.isArray(condition)) {
    const values = Array.isArray(value) ? value : [value];
    return values.some((v) => condition.some((c) => same(c, v)));
  }
  if (condition && typeof condition === 'object') {
    const number = Number(value);
    if (value === null || value === undefined || !Number.isFinite(number)) return false;
    if (condition.minimum !== undefined && number < condition.minimum) return false;
    if (condition.maximum !== undefined && number > condition.maximum) return false;
    return true;
  }
  return same(value, condition);
}

// ---------------------------------------------------------------------------------------------
// The form

/**
 * A form for job `info` ({name, title, schema}, see jobInfo). Options:
 * - idPrefix: prefix of the controls' ids (default `${job}-`), e.g. `sg-` gives `sg-time-limit`;
 * - only: the fields to show, in this order; exclude: fields the page provides itself (the
 *   text of a level, say); fields marked `x-hidden` and those no control fits are left out;
 * - values: starting values (a page's presets, or the values of an earlier visit), typed as
 *   in the request;
 * - labels: a page's own label for a field, where the page's context names it better;
 * - context: values of fields the page holds outside the form, for `x-when` (setContext);
 * - onChange(form): after every change, once the controls shown are updated.
 * Returns {job, fields, element, control(name), wrapper(name), field(name), value(name),
 * values(), request(), set(name, value), setContext(values), applies(name), refresh()}.
 */
export function buildForm(info, options = {}) {
  const {
    idPrefix = `${info.name}-`, only = null, exclude = [], values = {}, labels = {}, onChange = null,
  } = options;
  let context = { ...(options.context ?? {}) };
  const all = new Map(describeFields(info).map((field) => [field.name, field]));
  const names = only ?? [...all.keys()].filter((name) => !exclude.includes(name));
  const fields = names.map((name) => all.get(name))
    .filter((field) => field && field.kind && !field.hidden)
    .map((field) => (labels[field.name] ? { ...field, label: labels[field.name] } : field));
  const byName = new Map(fields.map((field) => [field.name, field]));
  const parts = new Map(fields.map((field) => [field.name, buildControl(field, idPrefix, values[field.name])]));

  // Expert knobs (`x-advanced`) go behind one disclosure, closed until the user opens it (or
  // a starting value sets one of them); the defaults are the strongest settings anyway.
  const basic = fields.filter((field) => !field.advanced);
  const expert = fields.filter((field) => field.advanced);
  const element = el('div', { class: 'option-grid schema-form', 'data-job': info.name }, basic.map((field) => parts.get(field.name).wrapper));
  let advanced = null;
  if (expert.length > 0) {
    advanced = el('details', { class: 'advanced-options' }, [
      el('summary', {}, 'Advanced'),
      el('div', { class: 'option-grid' }, expert.map((field) => parts.get(field.name).wrapper)),
    ]);
    advanced.open = expert.some((field) => values[field.name] !== undefined && !same(values[field.name], field.default));
    element.append(advanced);
  }

  const form = {
    job: info.name,
    fields,
    element,
    /** The "Advanced" disclosure (null when the form has no expert knob). */
    advanced,
    field: (name) => byName.get(name) ?? null,
    control: (name) => parts.get(name)?.control ?? null,
    wrapper: (name) => parts.get(name)?.wrapper ?? null,
    /** The value of a field as the request would carry it; undefined when empty (the default). */
    value: (name) => parts.get(name)?.read(),
    /** Every field's value that is set (typed; invalid input throws). */
    values() {
      const out = {};
      for (const field of fields) {
        const value = parts.get(field.name).read();
        if (value !== undefined) out[field.name] = value;
      }
      return out;
    },
    /** The request's part from this form: the fields that apply and differ from their defaults. */
    request() {
      const out = {};
      for (const field of fields) {
        if (!form.applies(field.name)) continue;
        const value = parts.get(field.name).read();
        if (value !== undefined && !same(value, field.default)) out[field.name] = value;
      }
      return out;
    },
    set(name, value) {
      parts.get(name)?.write(value);
      // A knob set away from its default is shown.
      const field = byName.get(name);
      if (advanced && field?.advanced && value !== undefined && !same(value, field.default)) advanced.open = true;
      form.refresh();
    },
    setContext(more) {
      context = { ...context, ...more };
      form.refresh();
    },
    /** Whether a field applies: its `x-when` holds for the other fields' effective values. */
    applies(name, depth = 0) {
      const field = all.get(name);
      if (!field?.when) return true;
      return Object.entries(field.when).every(([other, condition]) => {
        const value = effective(other, depth + 1);
        return value === undefined ? true : meets(value, condition);
      });
    },
    /** Shows the fields that apply, hides the others (and updates their placeholders). */
    refresh() {
      for (const field of fields) {
        const part = parts.get(field.name);
        part.wrapper.hidden = !form.applies(field.name);
        part.refresh?.();
      }
      // The disclosure only when one of its knobs applies.
      if (advanced) advanced.hidden = expert.every((field) => parts.get(field.name).wrapper.hidden);
    },
  };

  /** A field's value as the job would see it: the form's, the page's, else the default. */
  function effective(name, depth) {
    if (depth > 8) return undefined;
    if (byName.has(name)) {
      if (!form.applies(name, depth)) return all.get(name).default;
      let value;
      try { value = parts.get(name).read(); } catch { value = undefined; }
      return value === undefined ? all.get(name).default : value;
    }
    if (name in context) return context[name];
    return all.has(name) ? all.get(name).default : undefined;
  }

  const changed = () => {
    form.refresh();
    onChange?.(form);
  };
  form.element.addEventListener('input', changed);
  form.element.addEventListener('change', changed);
  form.refresh();
  return form;
}

/** A job's form (see buildForm), once the schemas are loaded. */
export async function jobForm(name, options) {
  return buildForm(await jobInfo(name), options);
}

/** A labelled select of `choices` ([{value, label, help}]), the choice `value` selected. */
export function choiceSelect(choices, { id, value, empty = null } = {}) {
  const select = el('select', { id });
  if (empty !== null) select.append(el('option', { value: '' }, empty));
  for (const choice of choices) {
    select.append(el('option', { value: String(choice.value), title: choice.help || undefined }, choice.label));
  }
  select.value = value === null || value === undefined ? '' : String(value);
  return select;
}

function describe(control, field) {
  if (!field.help) return;
  control.title = field.help;
  control.setAttribute('aria-description', field.help);
}

function labelled(field, control) {
  return el('div', { class: 'field', 'data-option': field.name }, el('label', { for: control.id }, field.label), control);
}

/** The control of one field: {wrapper, control, read() -> value or undefined, write(value)}. */
function buildControl(field, idPrefix, start) {
  const id = `${idPrefix}${field.name.replace(/_/g, '-')}`;
  const initial = start !== undefined ? start : field.default;
  const hint = field.default !== null && field.default !== undefined ? textOf(field.default) : defaultHint(field.help);

  if (field.kind === 'boolean') {
    const control = el('input', { id, name: field.name, type: 'checkbox', checked: Boolean(initial) });
    describe(control, field);
    return {
      control,
      wrapper: el('div', { class: 'check', 'data-option': field.name }, control, el('label', { for: id }, field.label)),
      read: () => control.checked,
      write: (value) => { control.checked = Boolean(value); },
    };
  }

  if (field.kind === 'choice') {
    const control = choiceSelect(field.choices, {
      id, value: initial, empty: field.nullable ? `Default${hint ? ` (${hint})` : ''}` : null,
    });
    control.name = field.name;
    describe(control, field);
    const byText = new Map(field.choices.map((choice) => [String(choice.value), choice.value]));
    const wrapper = labelled(field, control);
    wrapper.classList.add('wide');
    return {
      control,
      wrapper,
      read: () => (control.value === '' ? undefined : byText.get(control.value)),
      write: (value) => { control.value = value === null || value === undefined ? '' : String(value); },
    };
  }

  if (field.kind === 'list' && field.item.kind === 'choice' && !field.length) {
    // A list of named values: a checkbox per value.
    const boxes = field.item.choices.map((choice, i) => {
      const box = el('input', {
        id: `${id}-${i}`, type: 'checkbox', value: String(choice.value), title: choice.help || undefined,
        checked: Array.isArray(initial) && initial.some((v) => same(v, choice.value)),
      });
      return { choice, box };
    });
    const control = el('fieldset', { id, class: 'choice-list' },
      el('legend', {}, field.label),
      boxes.map(({ choice, box }) => el('span', { class: 'check' }, box, el('label', { for: box.id, title: choice.help || undefined }, choice.label))));
    describe(control, field);
    control.dataset.option = field.name;
    control.classList.add('wide');
    return {
      control,
      wrapper: control,
      read: () => boxes.filter(({ box }) => box.checked).map(({ choice }) => choice.value),
      write: (value) => { for (const { choice, box } of boxes) box.checked = Array.isArray(value) && value.some((v) => same(v, choice.value)); },
    };
  }

  if (field.kind === 'integer' || field.kind === 'number') {
    const integer = field.kind === 'integer';
    const control = el('input', {
      id, name: field.name, type: 'number', min: field.min, max: field.max, step: integer ? 1 : 'any',
      value: textOf(initial), placeholder: hint ?? 'default',
    });
    describe(control, field);
    return {
      control,
      wrapper: labelled(field, control),
      read: () => {
        const text = control.value.trim();
        if (text === '') {
          // A number input holds '' for text it cannot read: say so instead of sending the default.
          if (control.validity?.badInput) throw new Error(`${field.label}: not a number.`);
          return undefined;
        }
        return parseNumber(field, text, integer);
      },
      write: (value) => { control.value = textOf(value); },
    };
  }

  if (field.kind === 'text' && field.suggestions) {
    // Named values in a menu, and any other value typed in ("Other…").
    const OTHER = '\u0000other';
    const known = (value) => field.suggestions.some((choice) => same(choice.value, value));
    const select = choiceSelect([...field.suggestions, { value: OTHER, label: 'Other…', help: '' }], { id });
    select.name = field.name;
    const other = el('input', {
      id: `${id}-other`, type: 'text', spellcheck: 'false', 'aria-label': `${field.label}: other value`,
      placeholder: 'type a value',
    });
    describe(select, field);
    describe(other, field);
    const write = (value) => {
      const text = textOf(value);
      if (text === '' || known(value)) { select.value = text === '' ? String(field.default ?? '') : text; other.value = ''; }
      else { select.value = OTHER; other.value = text; }
      other.hidden = select.value !== OTHER;
    };
    write(initial);
    const wrapper = labelled(field, select);
    wrapper.append(other);
    wrapper.classList.add('wide');
    return {
      control: select,
      wrapper,
      read: () => {
        if (select.value !== OTHER) return select.value === '' ? undefined : select.value;
        const text = other.value.trim();
        return text === '' ? undefined : text;
      },
      write,
      refresh: () => { other.hidden = select.value !== OTHER; },
    };
  }

  // Text, and lists written with commas.
  const list = field.kind === 'list';
  const control = el('input', {
    id, name: field.name, type: 'text', spellcheck: 'false', value: textOf(initial),
    placeholder: hint ?? (list ? 'comma-separated' : 'default'),
  });
  describe(control, field);
  const wrapper = labelled(field, control);
  wrapper.classList.add('wide');
  return {
    control,
    wrapper,
    read: () => {
      const text = control.value.trim();
      if (!list) return text === '' ? undefined : text;
      if (text === '') return field.nullable ? undefined : [];
      const items = text.split(',').map((item) => item.trim()).filter((item) => item !== '');
      if (field.length && items.length !== field.length) {
        throw new Error(`${field.label}: give ${field.length} values separated by commas.`);
      }
      const kind = field.item.kind;
      return kind === 'integer' || kind === 'number' ? items.map((item) => parseNumber(field, item, kind === 'integer')) : items;
    },
    write: (value) => { control.value = textOf(value); },
  };
}
