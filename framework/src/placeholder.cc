// Placeholder so the object library has a source until the component core lands.
