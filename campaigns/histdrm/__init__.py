"""The Historical DRM chart (RF 11.6161): every CG day and side of a campaign on one page.

``chart.py`` pure: reading a chart typed or pasted from a printed table; ``services.py`` saving
the chart in one transaction; ``page.py`` what the page shows; ``forms.py``, ``views.py``;
``history.py`` its sentence.
"""
