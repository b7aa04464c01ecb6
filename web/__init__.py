"""The phone web app: pages, fragments, the JSON API, languages."""
