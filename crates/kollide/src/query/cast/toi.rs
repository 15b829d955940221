//! Time of impact of rotating bodies: conservative advancement.
