"""Forms submitted as a browser without a script submits them (HTML's form submission: the
form data set of the form's owned controls in tree order, then the submitter's name and
value), read from a page parsed by lxml — and every choice a form offers, each with the
words a player reads beside it (tests/web/test_label_is_record.py)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import html as lxml_html

CONTROLS = ("input", "select", "textarea", "button")
NOT_SENT = ("submit", "image", "reset", "button", "file")


@dataclass
class Choice:
    """One thing to tap: an option, a radio, a checkbox ticked, or a submit button (a tile)."""
    group: str          # the choices a player picks one of: a select, a radio group, a form's buttons
    label: str          # what the phone shows for it
    form: object        # the <form> element
    pairs: list = field(default_factory=list)   # the form data set, the submitter's pair in its place
    submitter: object = None                    # the button that sends it
    control: object = None                      # what the player set (None: the button alone)
    value: object = None                        # to what: an option's value, a box ticked or not
    fills: dict = field(default_factory=dict)   # the rest of the form as ``_filled`` left it


def page(text: str):
    return lxml_html.fromstring(text)


def words(element) -> str:
    return " ".join(element.text_content().split())


def owner(control, doc):
    """The form a control belongs to: its ``form`` attribute's, else its nearest ancestor."""
    if control.get("form") is not None:
        found = doc.xpath("//form[@id=$id]", id=control.get("form"))
        return found[0] if found else None
    return next((a for a in control.iterancestors("form")), None)


def controls(form, doc) -> list:
    return [el for el in doc.iter(*CONTROLS) if owner(el, doc) is form and not disabled(el)]


def disabled(control) -> bool:
    if control.get("disabled") is not None:
        return True
    for fieldset in control.iterancestors("fieldset"):
        if fieldset.get("disabled") is not None:
            legend = next(iter(fieldset.iterchildren("legend")), None)
            if legend is None or control not in legend.iter():
                return True
    return False


def submits(control) -> bool:
    return (control.tag == "button" and (control.get("type") or "submit").lower() == "submit") or \
        (control.tag == "input" and (control.get("type") or "").lower() in ("submit", "image"))


def option_value(option) -> str:
    value = option.get("value")
    return value if value is not None else " ".join((option.text_content() or "").split())


def selected_options(select) -> list:
    options = [o for o in select.iter("option") if o.get("disabled") is None]
    chosen = [o for o in options if o.get("selected") is not None]
    if select.get("multiple") is not None:
        return chosen
    if chosen:
        return chosen[-1:]           # the last one marked selected wins, as in a browser
    return options[:1]               # none marked: a single select shows (and sends) its first


def data_set(form, doc, chosen: dict | None = None, submitter=None) -> list[tuple[str, str]]:
    """The pairs a browser sends; ``chosen`` maps a control to what the player set on it:
    an <option> for a select, True/False for a checkbox or radio, a string for a field."""
    chosen = chosen or {}
    pairs = []
    for el in controls(form, doc):
        name, kind = el.get("name"), (el.get("type") or "text").lower()
        if not name:
            continue
        if el.tag == "select":
            options = [chosen[el]] if el in chosen else selected_options(el)
            pairs += [(name, option_value(o)) for o in options]
        elif el.tag == "textarea":
            pairs.append((name, chosen.get(el, el.text or "")))
        elif el.tag == "button" or kind in NOT_SENT:
            if el is submitter:
                pairs.append((name, el.get("value") or ""))
        elif kind in ("checkbox", "radio"):
            on = chosen[el] if el in chosen else el.get("checked") is not None
            if on:
                pairs.append((name, el.get("value") or "on"))
        else:
            pairs.append((name, chosen.get(el, el.get("value") or "")))
    return pairs


def label_of(control, doc) -> str:
    """What a player reads for a control: its <label> (wrapping it, or naming its id), its
    aria-label, its own text."""
    wrapping = next(control.iterancestors("label"), None)
    if wrapping is not None:
        return words(wrapping)
    if control.get("id"):
        found = doc.xpath("//label[@for=$id]", id=control.get("id"))
        if found:
            return words(found[0])
    return control.get("aria-label") or words(control)


def default_submitter(control, form, doc):
    """The button a player taps after setting ``control``: the first of the innermost part
    of the page around it that holds one (its fieldset, its section), else the form's first
    (implicit submission)."""
    buttons = [b for b in controls(form, doc) if submits(b)]
    for around in control.iterancestors():
        inside = [b for b in buttons if around in b.iterancestors()]
        if inside:
            return inside[0]
    return buttons[0] if buttons else None


def row_of(form) -> str:
    """What names the row a form sits in: a move of the log (its Void form) by its number."""
    row = next(form.iterancestors("li"), None)
    seq = row.xpath(".//*[contains(concat(' ', @class, ' '), ' seq ')]") if row is not None else []
    return words(seq[0]) if seq else ""


def choices(doc, fill: bool = True, text: bool = True) -> list[Choice]:
    """Every choice of every form posting on the page, the rest of the form ``_filled``."""
    out = []
    for form in doc.iter("form"):
        if (form.get("method") or "get").lower() != "post":
            continue
        key = re.sub(r"/games/[^/]+", "", re.sub(r"/\d+/", "/N/", form.get("action") or ""))
        owned = controls(form, doc)
        base = _filled(owned, text) if fill else {}
        for el in owned:
            if el.tag == "select" and el.get("multiple") is None:
                for option in el.iter("option"):
                    if option.get("disabled") is None and option_value(option):
                        out.append(_choice(f"{key} {el.get('name')}", words(option), form, doc,
                                           base | {el: option}, default_submitter(el, form, doc),
                                           el, option_value(option)))
            elif el.tag == "input" and (el.get("type") or "").lower() == "radio":
                group = [r for r in owned if r.get("name") == el.get("name") and r.tag == "input"]
                off = {r: False for r in group}
                out.append(_choice(f"{key} {el.get('name')}", label_of(el, doc), form, doc,
                                   base | off | {el: True}, default_submitter(el, form, doc), el, True))
            elif el.tag == "input" and (el.get("type") or "").lower() == "checkbox":
                out.append(_choice(f"{key} {el.get('name')}", label_of(el, doc), form, doc,
                                   base | {el: el.get("checked") is None}, default_submitter(el, form, doc),
                                   el, el.get("checked") is None))
            elif submits(el):
                label = " ".join(filter(None, [words(el) or el.get("aria-label") or "", row_of(form)]))
                out.append(_choice(_button_group(key, el), label, form, doc, base, el))
    return out


def _button_group(key: str, button) -> str:
    """A form's buttons are one group; tiles — buttons whose value names a move and its one
    choice ("architect-travelled:C", issue 39) — are a group per move, whose labels are
    judged like a select's options."""
    move, tile, _ = (button.get("value") or "").partition(":")
    return f"{key} {button.get('name')}" + (f" {move}:" if tile else "")


def numeric(control) -> bool:
    return control.tag == "input" and ((control.get("type") or "").lower() == "number"
                                       or control.get("inputmode") == "numeric")


def typed(doc, first: int = 11) -> list[tuple[Choice, dict]]:
    """For each button that number fields go with: the form sent with every one of them
    typed (11, 12, … in order: a figure found nowhere else on a phone's page), and each
    field's label and value; the choice's label is what the fields' section is headed."""
    out = []
    for form in doc.iter("form"):
        if (form.get("method") or "get").lower() != "post":
            continue
        owned = controls(form, doc)
        fields = [el for el in owned if numeric(el)]
        by_button: dict = {}
        for el in fields:
            by_button.setdefault(default_submitter(el, form, doc), []).append(el)
        for button, mine in by_button.items():
            if button is None:
                continue
            values = {el: str(first + i) for i, el in enumerate(mine)}
            chosen = _filled(owned) | values
            heading = _heading(button)
            choice = Choice(f"{form.get('action')} typed", heading, form, data_set(form, doc, chosen, button), button)
            out.append((choice, {label_of(el, doc): v for el, v in values.items()}))
    return out


def _heading(control) -> str:
    """The legend of the innermost fieldset around a control (what its section is about)."""
    for fieldset in control.iterancestors("fieldset"):
        legend = next(iter(fieldset.iterchildren("legend")), None)
        if legend is not None:
            return words(legend)
    return ""


def _filled(owned, text: bool = True) -> dict:
    """An empty "– choose –" set to the first real option, an empty text field (a void's
    reason, a note) to a word: what a player filling the rest of the form would leave."""
    base = {}
    for el in owned:
        kind = (el.get("type") or "text").lower()
        if text and el.tag == "input" and kind in ("text", "search") and not numeric(el) and not el.get("value"):
            base[el] = "table"
        if el.tag == "select" and el.get("multiple") is None:
            shown = selected_options(el)
            if shown and not option_value(shown[0]):
                real = [o for o in el.iter("option") if o.get("disabled") is None and option_value(o)]
                if real:
                    base[el] = real[0]
    return base


def _choice(group, label, form, doc, chosen, submitter, control=None, value=None) -> Choice:
    fills = {el: v for el, v in chosen.items() if el is not control and (not isinstance(v, bool))}
    return Choice(group, label, form, data_set(form, doc, chosen, submitter), submitter, control, value, fills)
