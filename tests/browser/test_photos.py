"""Photos in real Chromium at 390 × 844 (docs/photos.md): a photo chosen from the file
chooser on a dispute page reaches the other phone's table page by push, thumbnail first,
the full image on tap."""
import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.conftest import screenshot
from tests.browser.phones import record_a_round
from tests.events.images import gps_jpeg

pytestmark = pytest.mark.browser


def test_a_photo_attached_to_a_dispute_reaches_the_other_phone_by_push(live_server, tmp_path, phones_at_a_table):
    host, guest = phones_at_a_table()
    record_a_round(host, "Anna", 5)
    expect(guest.get_by_test_id("score-0")).to_have_text("5")
    game_url = host.url.split("?")[0]
    host.goto(f"{game_url}/timeline")
    host.locator("#e2 details.dispute-form summary").click()
    host.locator("#e2").get_by_label("Why do you dispute it?").fill("Anna had 4, not 5")
    host.locator("#e2").get_by_role("button", name="Dispute").click()
    expect(host.get_by_test_id("dispute-status")).to_contain_text("Open dispute")
    expect(guest.locator("#audit-nav")).to_contain_text("Disputed move #2")

    photo = tmp_path / "board.jpg"
    photo.write_bytes(gps_jpeg((1200, 600)))
    host.locator("details.photo-form summary").click()
    host.get_by_test_id("photo-file").set_input_files(str(photo))
    host.get_by_label("Caption (optional)").fill("Anna's pile: four cards")
    host.get_by_test_id("photo-submit").click()
    expect(host.locator("#photos img")).to_have_attribute("alt", "Anna's pile: four cards (#4)")
    screenshot(host, "photos-dispute-en")

    pushed = guest.locator("#audit-nav [data-testid=photos] img")
    expect(pushed).to_have_attribute("alt", "Anna's pile: four cards (#4)", timeout=2_000)  # no reload: pushed
    expect(guest.locator("#e4 .photo-mark img")).to_be_visible()
    loaded = guest.evaluate("src => new Promise(ok => { const i = new Image(); i.onload = () => ok([i.naturalWidth, i.naturalHeight]);"
                            " i.onerror = () => ok(null); i.src = src; })", pushed.get_attribute("src"))
    assert loaded == [160, 320]  # the thumbnail, upright (the EXIF asked for a quarter turn)
    screenshot(guest, "photos-pushed-en")
    with guest.expect_response(lambda r: r.url.endswith(".jpg") and "/photos/" in r.url) as answer:
        guest.locator("#audit-nav [data-testid=photo-link]").first.click()
    response = answer.value
    assert response.status == 200 and response.headers["content-type"] == "image/jpeg"
    assert response.headers["x-content-type-options"] == "nosniff"
    full = Image.open(io.BytesIO(response.body()))
    assert full.size == (600, 1200) and not full.getexif()

    host.goto(f"{live_server}/lang/hu?next={host.url.split(live_server)[1].split('#')[0]}")
    expect(host.locator("details.photo-form summary")).to_contain_text("Fénykép csatolása")
    screenshot(host, "photos-dispute-hu")
